# The error answers of protocol.tst, with the commands that lead to them
# (their answers unchecked here; protocol.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


1 protocol_version

2 name

3 version

4 known_command play

5 known_command gg_genmove

6 known_command kgs-genmove_cleanup

7 list_commands

10 no_such_command
#? [\? unknown command]

# Command names are case-sensitive.
11 NAME
#? [\? unknown command]

# Tabs are spaces, extra spaces are ignored, comments are cut.
12	  name   # trailing comment

# A huge id is echoed verbatim (the runner strips it, the answer is normal).
123456789012345678901234567890 name

13 name extra_argument
#? [\? syntax error.*]
