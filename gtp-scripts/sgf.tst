# loadsgf and printsgf. Paths are relative to gtp-scripts/.

# The position *before* move 3: two moves played, Black to move.
1 loadsgf sgf/game9.sgf 3
#? []

2 list_stones black
#? [E5]

3 list_stones white
#? [C7]

4 genmove black
#? [[A-J][1-9]]

# Whole main line (first variation): 8 moves.
5 loadsgf sgf/game9.sgf
#? []

6 list_stones black
#? [G7 C5 E5 G3]

7 list_stones white
#? [C7 D7 C3 E3]

8 loadsgf sgf/game9.sgf 1
#? []

9 list_stones black
#? []

# Komi and size come from the file; handicap stones are set up.
10 loadsgf sgf/handicap13.sgf
#? []

11 list_stones black
#? [C11 K10 D4]

12 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[13\]KM\[0\.5\]HA\[2\]AB\[jd\]\[dj\];W\[gg\];B\[cc\]\)]

# A failed load leaves the game alone.
17 list_stones black
#? [C11 K10 D4]

# printsgf writes a file that loadsgf reads back.
boardsize 9
clear_board
komi 7.5
play b c3
play w pass
play b g7
21 printsgf sgf/roundtrip.out.sgf
#? []

clear_board
22 loadsgf sgf/roundtrip.out.sgf
#? []

23 list_stones black
#? [G7 C3]

24 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\]KM\[7\.5\];B\[cg\];W\[\];B\[gc\]\)]
