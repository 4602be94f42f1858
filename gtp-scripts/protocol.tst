# Protocol basics: identity commands, ids, preprocessing, unknown commands.
# Format: GNU Go regression (numbered command, then "#? [regex]").

1 protocol_version
#? [2]

2 name
#? [tengen]

3 version
#? [[0-9]+\.[0-9]+\.[0-9]+]

4 known_command play
#? [true]

5 known_command gg_genmove
#? [false]

6 known_command kgs-genmove_cleanup
#? [true]

7 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\nclear_board\nkomi\nplay\ngenmove\nundo\nfixed_handicap\nplace_free_handicap\nset_free_handicap\ntime_settings\ntime_left\nfinal_score\nfinal_status_list\nloadsgf\nreg_genmove\nshowboard\nkgs-genmove_cleanup\nkgs-time_settings\nprintsgf\ncgos-gameover\ngogui-analyze_commands\nis_legal\nall_legal\nlist_stones\ncountlib\ncaptures\nlz-analyze\nlz-genmove_analyze\ntengen-weights\ntengen-best_moves\ntengen-pv\ntengen-ownership\ntengen-table_stats\ntengen-table_pv\ntengen-clear_tree\nattack\ndefend\nowl_attack\nowl_defend\nowl_does_attack\nowl_does_defend\ntengen-owl_attack\ntengen-owl_defend\ndragon_status\ntsumego_solve\ntsumego_genmove\ntengen-tsumego_var\ntengen-tsumego_gfx\ntengen-tsumego_region\ntengen-tsumego_safe\ntengen-tsumego_limit]

# Command names are case-sensitive.

# Tabs are spaces, extra spaces are ignored, comments are cut.
12	  name   # trailing comment
#? [tengen]

# A huge id is echoed verbatim (the runner strips it, the answer is normal).
123456789012345678901234567890 name
#? [tengen]

14 gogui-analyze_commands
#? [.*string/Final Score/final_score.*]

15 cgos-gameover B+Resign
#? []

16 cgos-gameover
#? []
