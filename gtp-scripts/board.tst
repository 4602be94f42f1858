# Board setup, moves, legality, and the GNU Go-compatible debug commands.

5 boardsize 25
#? []

6 play black Z25
#? []

7 boardsize 9
#? []

8 list_stones black
#? []

9 komi 6.5
#? []

11 komi -3
#? []

12 play b e5
#? []

# On the board as a vertex, but off this 9x9 board.

18 play white pass
#? []

19 play W PASS
#? []

20 list_stones black
#? [E5]

21 countlib e5
#? [4]

23 undo
#? []

24 undo
#? []

25 undo
#? []

27 clear_board
#? []

# Suicide is illegal.
play b a2
play b b1

31 is_legal w a1
#? [0]

32 is_legal b a1
#? [1]

33 is_legal b a2
#? [0]

# Capture, captures count and liberties.
play w a3
play w b2
play w c1
35 countlib a2
#? [1]

36 play w a1
#? []

37 list_stones black
#? []

38 captures white
#? [2]

39 captures black
#? [0]

40 list_stones white
#? [A3 B2 A1 C1]

# Simple ko: Black captures at C2; White may not retake at B2 at once.
clear_board
play b b1
play b a2
play b b3
play w c1
play w d2
play w c3
play w b2
41 play b c2
#? []

42 is_legal w b2
#? [0]

# Black may fill the ko himself.
44 is_legal b b2
#? [1]

45 play w h8
#? []

46 play b h2
#? []

47 play w b2
#? []

# all_legal on a tiny board.
48 boardsize 2
#? []

49 all_legal black
#? [A2 B2 A1 B1]

# Positional superko on 2x2: Black A1 would recreate the position after move 1.
play b a1
play w b2
play b b1
play w a2
play b a1
play w b1
50 list_stones white
#? [A2 B2 B1]

51 is_legal b a1
#? [0]

53 showboard
#? [A B.*A B.*]

54 showboard
#? [!.*\n\n.*]
