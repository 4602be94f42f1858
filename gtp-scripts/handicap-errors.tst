# The error answers of handicap.tst, with the commands that lead to them
# (their answers unchecked here; handicap.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


boardsize 19
1 fixed_handicap 9

2 fixed_handicap 2
#? [\? board not empty]

clear_board
3 fixed_handicap 1
#? [\? invalid number of stones]

4 fixed_handicap 10
#? [\? invalid number of stones]

5 fixed_handicap two
#? [\? syntax error.*]

6 fixed_handicap 3

clear_board
boardsize 9
7 fixed_handicap 5

clear_board
boardsize 10
8 fixed_handicap 5
#? [\? invalid number of stones]

9 fixed_handicap 4

boardsize 6
10 fixed_handicap 2
#? [\? invalid number of stones]

11 place_free_handicap 2

12 place_free_handicap 2
#? [\? board not empty]

clear_board
13 place_free_handicap 36
#? [\? invalid number of stones]

14 place_free_handicap 35

clear_board
boardsize 19
15 place_free_handicap 4

clear_board
16 set_free_handicap a1
#? [\? bad vertex list]

17 set_free_handicap a1 a1
#? [\? bad vertex list]

18 set_free_handicap a1 pass
#? [\? bad vertex list]

19 set_free_handicap a1 z25
#? [\? bad vertex list]

20 set_free_handicap a1 q16 d4

21 list_stones black

22 set_free_handicap c3 c4
#? [\? board not empty]
