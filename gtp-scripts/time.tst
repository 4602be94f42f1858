# Time commands. time_left works without time_settings; settings survive
# clear_board and boardsize (the CGOS client sends them before clear_board).

1 time_left black 300 0
#? []

2 time_settings 300 30 5
#? []

3 clear_board
#? []

4 boardsize 9
#? []

5 time_left white 250 0
#? []

6 time_left white 20 3
#? []

10 kgs-time_settings none
#? []

11 kgs-time_settings absolute 600
#? []

12 kgs-time_settings byoyomi 600 30 5
#? []

13 kgs-time_settings canadian 600 300 25
#? []

16 time_left w 12.5 0
#? []

17 genmove b
#? [[A-J][1-9]]
