# Classic corner shapes with known status, through the GNU Go-compatible
# owl commands on a 19x19 board. The same script runs unchanged in GNU Go
# 3.8 (tests/gtp_scripts.rs runs it there too when GNU Go is installed):
# both engines must give the classic answer codes. Key moves are pinned
# only where the shape has a single one.

# The L group, no outside liberties: dead even if it plays first.
boardsize 19
clear_board
play white A4
play black B3
play white B4
play black C3
play white C4
play black D2
play black D3
play white D4
play white E1
play white E2
play white E3
play white E4
play white F1
play white F2
play white F3
play white F4
10 owl_attack B3
#? [1 [A-T][0-9]+]

11 owl_defend B3
#? [0]

# The L group with two outside liberties (E3, E2): still dead.
boardsize 19
clear_board
play white A4
play black B3
play white B4
play black C3
play white C4
play black D2
play black D3
play white D4
play white E1
play white E4
play white F1
play white F2
play white F3
play white F4
20 owl_attack B3
#? [1 [A-T][0-9]+]

21 owl_defend B3
#? [0]

# L+1, leg on A3, two outside liberties: lives or dies by who plays first.
boardsize 19
clear_board
play black A3
play white A4
play black B3
play white B4
play black C3
play white C4
play black D2
play black D3
play white D4
play white E1
play white E4
play white F1
play white F2
play white F3
play white F4
30 owl_attack B3
#? [1 [A-T][0-9]+]

31 owl_defend B3
#? [1 [A-T][0-9]+]

# L+1, leg on D1, two outside liberties: lives or dies by who plays first.
boardsize 19
clear_board
play white A4
play black B3
play white B4
play black C3
play white C4
play black D1
play black D2
play black D3
play white D4
play white E1
play white E4
play white F1
play white F2
play white F3
play white F4
40 owl_attack B3
#? [1 [A-T][0-9]+]

41 owl_defend B3
#? [1 [A-T][0-9]+]

# Rectangular six in the corner (the L group with both legs), no outside liberties: the first player wins.
boardsize 19
clear_board
play black A3
play white A4
play black B3
play white B4
play black C3
play white C4
play black D1
play black D2
play black D3
play white D4
play white E1
play white E2
play white E3
play white E4
play white F1
play white F2
play white F3
play white F4
50 owl_attack B3
#? [1 [A-T][0-9]+]

51 owl_defend B3
#? [1 [A-T][0-9]+]

# Rectangular six in the corner, one outside liberty (E3): attacked at the 2-1 point it is a ko the attacker takes first.
boardsize 19
clear_board
play black A3
play white A4
play black B3
play white B4
play black C3
play white C4
play black D1
play black D2
play black D3
play white D4
play white E1
play white E2
play white E4
play white F1
play white F2
play white F3
play white F4
60 owl_attack B3
#? [2 B1]

61 owl_defend B3
#? [1 [A-T][0-9]+]

# Rectangular six in the corner, two outside liberties: alive.
boardsize 19
clear_board
play black A3
play white A4
play black B3
play white B4
play black C3
play white C4
play black D1
play black D2
play black D3
play white D4
play white E1
play white E4
play white F1
play white F2
play white F3
play white F4
70 owl_attack B3
#? [0]

71 owl_defend B3
#? [1 [A-T][0-9]+]

# Bent four in the corner: White's eye space A2 A1 B1 C1, no outside liberties; the attacker's 2-1 point makes a ko it takes first.
boardsize 19
clear_board
play white A3
play black A4
play white B2
play white B3
play black B4
play white C2
play black C3
play black C4
play white D1
play white D2
play black D3
play black E1
play black E2
play black E3
80 owl_attack A3
#? [2 B1]

81 owl_defend A3
#? [1 (A1|B1)]
