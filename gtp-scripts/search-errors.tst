# The error answers of search.tst, with the commands that lead to them
# (their answers unchecked here; search.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


boardsize 9
clear_board
komi 7.5
# A white chain C5-G5 in atari inside Black's wall, its last liberty at
# H5. Capturing decides the game. (Deterministic with seed 1; 5 of 6
# seeds find it at 400 playouts.)
play b b5
play w c5
play b c4
play w d5
play b d4
play w e5
play b e4
play w f5
play b f4
play w g5
play b g4
play w h8
play b c6
play w h2
play b d6
play w b8
play b e6
play w b2
play b f6
play w j9
play b g6
play w a1
1 genmove b

2 captures black

3 tengen-pv

4 tengen-best_moves

5 tengen-ownership

6 tengen-weights

7 known_command lz-analyze

8 lz-analyze foo bar
#? [\? syntax error.*]

# Resign and pass: a hopeless position for White is resigned only after
# enough visits (400 playouts are below resign_min_visits), so White
# plays on.
boardsize 9
clear_board
komi 0.5
10 genmove w

# Passing when the opponent passed and passing wins: Black owns the
# board (Tromp-Taylor) after one stone, White passed.
boardsize 5
clear_board
komi 0.5
play b c3
play w pass
11 genmove b

# But not when passing would lose under Tromp-Taylor.
boardsize 5
clear_board
komi 30.5
play b c3
play w pass
12 genmove b

# The table commands (the scripts run with --no-table).
boardsize 9
clear_board
13 tengen-table_stats
#? [\? no best-move table in use.*]
