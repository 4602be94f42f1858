# The error answers of sgf.tst, with the commands that lead to them
# (their answers unchecked here; sgf.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


# The position *before* move 3: two moves played, Black to move.
1 loadsgf sgf/game9.sgf 3

2 list_stones black

3 list_stones white

4 genmove black

# Whole main line (first variation): 8 moves.
5 loadsgf sgf/game9.sgf

6 list_stones black

7 list_stones white

8 loadsgf sgf/game9.sgf 1

9 list_stones black

# Komi and size come from the file; handicap stones are set up.
10 loadsgf sgf/handicap13.sgf

11 list_stones black

12 printsgf

13 loadsgf sgf/no-such-file.sgf
#? [\? cannot load file.*no-such-file.*]

14 loadsgf sgf/broken.sgf
#? [\? cannot load file.*broken.sgf.*]

15 loadsgf sgf/offboard.sgf
#? [\? cannot load file.*move 2.*off the 9x9 board.*]

16 loadsgf sgf/illegal.sgf
#? [\? cannot load file.*move 2.*illegal.*]

# A failed load leaves the game alone.
17 list_stones black

18 loadsgf sgf/game9.sgf 0
#? [\? syntax error.*]

19 loadsgf sgf
#? [\? cannot load file.*]

20 loadsgf
#? [\? syntax error.*]
