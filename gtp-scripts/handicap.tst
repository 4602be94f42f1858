# Handicap commands.

boardsize 19
1 fixed_handicap 9
#? [D16 K16 Q16 D10 K10 Q10 D4 K4 Q4]

clear_board

6 fixed_handicap 3
#? [D16 Q16 D4]

clear_board
boardsize 9
7 fixed_handicap 5
#? [C7 G7 E5 C3 G3]

clear_board
boardsize 10

9 fixed_handicap 4
#? [C8 H8 C3 H3]

boardsize 6

11 place_free_handicap 2
#? [[A-H][0-9] [A-H][0-9]]

clear_board

14 place_free_handicap 35
#? [([A-H][0-9] ){34}[A-H][0-9]]

clear_board
boardsize 19
15 place_free_handicap 4
#? [D16 Q16 D4 Q4]

clear_board

20 set_free_handicap a1 q16 d4
#? []

21 list_stones black
#? [Q16 D4 A1]

# After handicap White is to move.
23 genmove white
#? [[A-T][0-9]+]
