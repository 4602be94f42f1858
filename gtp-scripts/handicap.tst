# Handicap commands.

boardsize 19
1 fixed_handicap 9
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]

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
#? [D16 Q16 D4]

clear_board
boardsize 9
7 fixed_handicap 5
#? [C7 G7 E5 C3 G3]

clear_board
boardsize 10
8 fixed_handicap 5
#? [\? invalid number of stones]

9 fixed_handicap 4
#? [C8 H8 C3 H3]

boardsize 6
10 fixed_handicap 2
#? [\? invalid number of stones]

11 place_free_handicap 2
#? [[A-H][0-9] [A-H][0-9]]

12 place_free_handicap 2
#? [\? board not empty]

clear_board
13 place_free_handicap 36
#? [\? invalid number of stones]

14 place_free_handicap 35
#? [([A-H][0-9] ){34}[A-H][0-9]]

clear_board
boardsize 19
15 place_free_handicap 4
#? [D16 Q16 D4 Q4]

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
#? []

21 list_stones black
#? [Q16 D4 A1]

22 set_free_handicap c3 c4
#? [\? board not empty]

# After handicap White is to move.
23 genmove white
#? [[A-T][0-9]+]
