# Move generation with the random engine, scoring and status.

boardsize 9
clear_board
1 genmove black
#? [[A-J][1-9]]

2 reg_genmove white
#? [[A-J][1-9]]

# reg_genmove does not play: still one stone on the board.
3 list_stones white
#? []

4 genmove w
#? [[A-J][1-9]]

6 kgs-genmove_cleanup black
#? [[A-J][1-9]]

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
#? [B5]

11 final_score
#? [W\+0\.5]

12 final_status_list alive
#? [D9 D8 D7 D6 D5 D4 D3 D2 D1\nF9 F8 F7 F6 F5 F4 F3 F2 F1]

13 final_status_list seki
#? []

# Black has nothing useful left: a random move never fills its own eye;
# on a full board it passes.
boardsize 2
play b a1
play b b2
15 genmove black
#? [PASS]

16 genmove white
#? [PASS]

17 quit
#? []
