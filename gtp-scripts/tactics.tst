# String tactics (GNU Go's attack/defend), regression style. Each position
# was put to GNU Go 3.8: its codes are expected here; where its move
# differs from ours, both are accepted.

# The textbook ladder: white D5 against C5, D6, E4 (GNU Go: 1 D4, 1 D4).
boardsize 9
clear_board
play b C5
play b D6
play b E4
play w D5
1 attack D5
#? [1 D4]

2 defend D5
#? [1 D4]

# Breakers on both diagonals of a 19x19 ladder: no attack, so no defence
# is needed (GNU Go: 0, and it names K9).
boardsize 19
clear_board
play b K11
play b J10
play b L9
play w K10
3 attack K10
#? [1 K9]

play w D4
play w Q16
4 attack K10
#? [0]

5 defend K10
#? [1 (PASS|K9)]

# A net: white G7 against F7, G6, F9, J6 is caught at H8, off its
# liberties (GNU Go: 1 H8, and it defends at G8).
boardsize 13
clear_board
play b F7
play b G6
play b F9
play b J6
play w G7
6 attack G7
#? [1 H8]

7 defend G7
#? [1 (H7|G8)]

# The snapback in the corner: white A2-B2-C2-C1 (GNU Go: 1 A1, 0).
boardsize 9
clear_board
play b A3
play b B3
play b C3
play b D2
play b D1
play w A2
play w B2
play w C2
play w C1
8 attack A2
#? [1 A1]

9 defend A2
#? [0]

# A ko: black takes white B2 by a ko capture at C2 (GNU Go: 2 C2).
boardsize 9
clear_board
play b B3
play b A2
play b B1
play w C3
play w D2
play w C1
play w B2
10 attack B2
#? [2 C2]

# With the ko just taken by white, black needs a threat: GNU Go 3 C2.
clear_board
play b B3
play w C3
play b A2
play w D2
play b B1
play w C1
play b C2
play w B2
11 attack B2
#? [3 C2]

12 defend B2
#? [1 (A1|C2)]
