# The error answers of time.tst, with the commands that lead to them
# (their answers unchecked here; time.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


1 time_left black 300 0

2 time_settings 300 30 5

3 clear_board

4 boardsize 9

5 time_left white 250 0

6 time_left white 20 3

7 time_settings 300 30
#? [\? syntax error.*]

8 time_settings -1 0 0
#? [\? syntax error.*]

9 time_left black ten 0
#? [\? syntax error.*]

10 kgs-time_settings none

11 kgs-time_settings absolute 600

12 kgs-time_settings byoyomi 600 30 5

13 kgs-time_settings canadian 600 300 25

14 kgs-time_settings fischer 600 10
#? [\? syntax error.*]

15 kgs-time_settings byoyomi 600
#? [\? syntax error.*]
