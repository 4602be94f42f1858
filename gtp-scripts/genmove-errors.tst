# The error answers of genmove.tst, with the commands that lead to them
# (their answers unchecked here; genmove.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


boardsize 9
clear_board
1 genmove black

2 reg_genmove white

# reg_genmove does not play: still one stone on the board.
3 list_stones white

4 genmove w

5 genmove x
#? [\? syntax error.*]

6 kgs-genmove_cleanup black

# A finished position: Black owns columns A-D, White F-J, E is dame.
boardsize 9
clear_board
komi 0.5
play b d1
play b d2
play b d3
play b d4
play b d5
play b d6
play b d7
play b d8
play b d9
play w f1
play w f2
play w f3
play w f4
play w f5
play w f6
play w f7
play w f8
play w f9
# a dead white stone in Black's area
play w b5
10 final_status_list dead

11 final_score

12 final_status_list alive

13 final_status_list seki

14 final_status_list unknown
#? [\? syntax error.*]
