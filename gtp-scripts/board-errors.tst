# The error answers of board.tst, with the commands that lead to them
# (their answers unchecked here; board.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


1 boardsize 1
#? [\? unacceptable size]

2 boardsize 26
#? [\? unacceptable size]

3 boardsize nine
#? [\? syntax error.*]

4 boardsize
#? [\? syntax error.*]

5 boardsize 25

6 play black Z25

7 boardsize 9

8 list_stones black

9 komi 6.5

10 komi seven
#? [\? syntax error.*]

11 komi -3

12 play b e5

13 play w E5
#? [\? illegal move]

14 play x e5
#? [\? syntax error.*]

15 play b
#? [\? syntax error.*]

16 play b i5
#? [\? syntax error.*]

# On the board as a vertex, but off this 9x9 board.
17 play b k10
#? [\? illegal move]

18 play white pass

19 play W PASS

20 list_stones black

21 countlib e5

22 countlib e6
#? [\? .*empty.*]

23 undo

24 undo

25 undo

26 undo
#? [\? cannot undo]

27 clear_board

# Suicide is illegal.
play b a2
play b b1
30 play w a1
#? [\? illegal move]

31 is_legal w a1

32 is_legal b a1

33 is_legal b a2

# Capture, captures count and liberties.
play w a3
play w b2
play w c1
35 countlib a2

36 play w a1

37 list_stones black

38 captures white

39 captures black

40 list_stones white

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

42 is_legal w b2

43 play w b2
#? [\? illegal move]

# Black may fill the ko himself.
44 is_legal b b2

45 play w h8

46 play b h2

47 play w b2

# all_legal on a tiny board.
48 boardsize 2

49 all_legal black

# Positional superko on 2x2: Black A1 would recreate the position after move 1.
play b a1
play w b2
play b b1
play w a2
play b a1
play w b1
50 list_stones white

51 is_legal b a1

52 play b a1
#? [\? illegal move]
