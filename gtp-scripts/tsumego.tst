# Life and death through GTP, GNU Go regression style: loadsgf (before move
# 1: the files hold the solution as their first variation), then a
# numbered command and the expected answer.

loadsgf sgf/ld-straight-three.sgf 1
1 owl_attack A2
#? [1 B1]

2 owl_defend A2
#? [1 B1]

3 dragon_status A2
#? [critical B1 B1]

4 tsumego_solve A2 defender
#? [status alive code 1 ko - first defender move B1 leaves [0-9]+ nodes [0-9]+ tt [0-9]+ ms [0-9.]+ region 8 line W B1]

5 tsumego_solve A2 attacker
#? [status dead code 1 ko - first attacker move B1 .* line B B1( .*)?]

6 tengen-tsumego_var A2 attacker
#? [B1( [A-J][0-9]| PASS)*]

7 tengen-tsumego_gfx A2
#? [VAR w B1\nTEXT status alive .*]

# GNU Go's owl_does_*: the vital point kills and saves; C1 does neither.
8 owl_does_attack B1 A2
#? [1]

9 owl_does_defend B1 A2
#? [1]

13 owl_does_attack C1 A2
#? [0]

14 owl_does_defend C1 A2
#? [0]

loadsgf sgf/ld-bulky-five.sgf 1
10 owl_attack A3
#? [1 B1]

11 dragon_status A3
#? [critical B1 B1]

12 tsumego_solve A3 defender level 3
#? [status alive code 1 .*]

# A ko White can never settle: dead, however many threats White has.
loadsgf sgf/ld-one-sided-ko.sgf 1
20 owl_attack A2
#? [1 C1]

21 owl_defend A2
#? [0]

22 tsumego_solve A2 attacker
#? [status dead code 1 ko - first attacker move C1 .*]

23 tsumego_solve A2 defender
#? [status dead code 0 ko - first defender .*]

# Bent four in the corner with no outside liberties (our convention, see
# docs/tsumego.md): the attacker's 2-1 point starts a ko it takes first,
# which the defender wins with one external threat.
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
24 tsumego_solve A3 attacker
#? [status ko code 2 ko d1l first attacker move B1 .*]

25 tsumego_solve A3 defender
#? [status alive code 1 ko - first defender move (A1|B1) .*]

# Limits answer "unknown" instead of hanging (the ko above needs more
# than two nodes; the static evaluation settles a bare nakade in one).
30 tengen-tsumego_limit nodes 2
#? [nodes 2 time 30 level 1 region detect safe 0 repetition superko threats auto]

31 owl_attack A3
#? [unknown]

32 tsumego_solve A3 attacker
#? [status unknown code - .*]

33 tengen-tsumego_limit nodes 2000000 time 0 level 1
#? [nodes 2000000 time 0 level 1 region detect safe 0 repetition superko threats auto]

# Errors name what is wrong.

# An explicit region: the corner points and the group.
loadsgf sgf/ld-bulky-five.sgf 1
50 tengen-tsumego_region A1 B1 C1 A2 B2 A3
#? []

51 tsumego_solve A3 attacker
#? [status dead code 1 ko - first attacker move B1 .*]

52 tengen-tsumego_region
#? []

53 tengen-tsumego_limit
#? [.* region detect .*]

# The repetition rule. White's corner holds under positional superko:
# after Black A2, White's A1 takes B1, and after Black A3 White holds
# that ko by passing (Black's retake would recreate the position before
# the capture), so Black kills only through the ko, with the first
# threat. Under simple ko, as GoTools' files read, Black retakes after
# the pass, so White must connect at B1 and Black kills at C2.
boardsize 9
clear_board
play black A5
play black B5
play black C5
play black A4
play white B4
play black C4
play black D4
play black E4
play white B3
play white C3
play white D3
play black E3
play white B2
play white D2
play black E2
play black B1
play white C1
play white D1
play black E1
54 owl_attack B4
#? [3 A2]

55 tengen-tsumego_limit repetition simple-ko
#? [.* repetition simple-ko .*]

56 owl_attack B4
#? [1 A2]

57 tsumego_solve B4 attacker
#? [status dead code 1 ko - first attacker move A2 .* line B A2 W A1 B A3 W B1 B C2]

58 tengen-tsumego_limit repetition superko
#? [.* repetition superko .*]

# Fixed external ko threats (Black's, White's): each answer is one
# search with them, so a plain code. The bent four of tests 24 and 25:
# Black's B1 takes the ko first, and White needs one threat to turn it.
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
40 tengen-tsumego_limit threats 0,0
#? [.* threats 0,0]

41 owl_attack A3
#? [1 B1]

42 tengen-tsumego_limit threats 0,1
#? [.* threats 0,1]

43 owl_attack A3
#? [0]

44 tsumego_solve A3 attacker
#? [status alive code 0 ko - .*]

45 tengen-tsumego_limit threats 1,1
#? [.* threats 1,1]

46 owl_attack A3
#? [1 B1]

47 tengen-tsumego_limit threats auto
#? [.* threats auto]

48 owl_attack A3
#? [2 B1]

# Several crucial chains: the attacker must capture all of them. A living
# group (eyes at A9 and C9) and a lone stone at F8.
loadsgf sgf/ld-two-chains.sgf
60 owl_attack F8
#? [1 F9]

61 tengen-owl_attack B9 F8
#? [0]

62 tengen-owl_defend F8
#? [0]

63 tsumego_solve B9 F8 attacker
#? [status alive code 0 ko - first attacker move - .* region 10 line.*]

64 tsumego_solve F8 attacker
#? [status dead code 1 ko - first attacker move F9 .* region 2 line B F9]

# A crucial chain captured earlier: its empty point, named after
# `captured`, counts again if the defender refills it. White's H9 is lost
# on its own, but White's E9 would join the living corner (eyes at A9 and
# C9), where Black cannot play.
boardsize 9
clear_board
play W B9
play W D9
play W F9
play W A8
play W B8
play W C8
play W D8
play W E8
play W F8
play B G9
play B G8
play B J8
play B A7
play B B7
play B C7
play B D7
play B E7
play B F7
play B G7
play B H7
play W H9
65 tengen-owl_defend H9
#? [0]

66 tengen-owl_defend H9 captured E9
#? [1 E9]

67 tengen-owl_attack H9
#? [1 (H8|J9)]

68 tengen-owl_attack H9 captured E9
#? [0]

# tsumego_genmove: the stones on the board are the problem, framed (a book
# problem: the side to play lives or kills). The bulky five: Black kills
# at its vital point, White lives there.
loadsgf sgf/ld-bulky-five.sgf 1
70 tsumego_genmove b
#? [B1]

71 tsumego_genmove w
#? [B1]
