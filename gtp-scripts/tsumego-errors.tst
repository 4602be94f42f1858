# The error answers of tsumego.tst, with the commands that lead to them
# (their answers unchecked here; tsumego.tst checks them). Our dialect: the
# checks expect "? message" answers, which gogui-regress counts as
# failures, so they live in *-errors.tst files that only `cargo test` runs.


loadsgf sgf/ld-straight-three.sgf 1
1 owl_attack A2

2 owl_defend A2

3 dragon_status A2

4 tsumego_solve A2 defender

5 tsumego_solve A2 attacker

6 tengen-tsumego_var A2 attacker

7 tengen-tsumego_gfx A2

8 owl_does_attack B1 A2

9 owl_does_defend B1 A2

13 owl_does_attack C1 A2

14 owl_does_defend C1 A2

loadsgf sgf/ld-bulky-five.sgf 1
10 owl_attack A3

11 dragon_status A3

12 tsumego_solve A3 defender level 3

# A ko White can never settle: dead, however many threats White has.
loadsgf sgf/ld-one-sided-ko.sgf 1
20 owl_attack A2

21 owl_defend A2

22 tsumego_solve A2 attacker

23 tsumego_solve A2 defender

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

25 tsumego_solve A3 defender

# Limits answer "unknown" instead of hanging.
30 tengen-tsumego_limit nodes 2

loadsgf sgf/ld-bulky-five.sgf 1
31 owl_attack A3

32 tsumego_solve A3

33 tengen-tsumego_limit nodes 2000000 time 0 level 1

# Errors name what is wrong.
40 owl_attack E5
#? [\? E5 is empty: name a stone of the group to attack or defend]

# Black's wall is not enclosed: it is framed, and walks out of the frame.
41 owl_attack E4
#? [0]

42 tsumego_solve A3 sideways
#? [\? syntax error: expected: tsumego_solve .*]

43 tengen-tsumego_limit level 9
#? [\? syntax error: level must be 1 \(exact\) to 5 \(fastest\)]

44 owl_defend
#? [\? syntax error.*]

45 tengen-tsumego_limit repetition positional
#? [\? syntax error: repetition must be superko or simple-ko]

46 tengen-tsumego_limit threats 6,0
#? [\? syntax error: threats must be auto or B,W.*]

47 tengen-tsumego_limit threats 2
#? [\? syntax error: threats must be auto or B,W.*]

# An explicit region: the corner points and the group.
50 tengen-tsumego_region A1 B1 C1 A2 B2 A3

51 tsumego_solve A3 attacker

52 tengen-tsumego_region

53 tengen-tsumego_limit

# Several crucial chains: the attacker must capture all of them. A living
# group (eyes at A9 and C9) and a lone stone at F8.
loadsgf sgf/ld-two-chains.sgf
60 owl_attack F8

61 tengen-owl_attack B9 F8

62 tengen-owl_defend F8

63 tsumego_solve B9 F8 attacker

64 tsumego_solve F8 attacker

65 tengen-owl_attack B9 E9
#? [\? the crucial stones B9 and E9 are of different colours.*]

# A group that cannot be framed: its fight spans the whole board.
boardsize 19
clear_board
play B A10
play B B10
play B C10
play B D10
play B E10
play B F10
play B G10
play B H10
play B J10
play B K10
play B L10
play B M10
play B N10
play B O10
play B P10
play B Q10
play B R10
play B S10
play B T10
play B K1
play B K2
play B K3
play B K4
play B K5
play B K6
play B K7
play B K8
play B K9
play B K11
play B K12
play B K13
play B K14
play B K15
play B K16
play B K17
play B K18
play B K19
play W L11
70 owl_attack K10
#? [\? the group at K10 is not enclosed, and it cannot be framed: the framed region has .* empty points, more than the solver takes \(64\).*]

71 tsumego_genmove w
#? [\? the framed region has .* empty points.*]

72 tsumego_genmove
#? [\? syntax error.*]

# owl_does_*: the group must be a stone, the move legal, both vertices.
loadsgf sgf/ld-straight-three.sgf 1
80 owl_does_attack B1 B1
#? [\? B1 is empty.*]

81 owl_does_attack A2 A2
#? [\? illegal move.*]

82 owl_does_defend B1
#? [\? syntax error.*]

83 owl_does_attack Z9 A2
#? [\? invalid coordinate: Z9 is off the 9x9 board]

# attack/defend: the vertex must be a stone on the board.
boardsize 9
clear_board
84 attack A1
#? [\? A1 is empty.*]

85 defend Z9
#? [\? invalid coordinate: Z9 is off the 9x9 board]

86 defend
#? [\? syntax error.*]

87 attack pass
#? [\? invalid coordinate: pass is not a point]

# tengen-owl_attack/defend: points after `captured` must be empty and in
# the group's region, and at least one stone comes before `captured`.
play W A1
play B A2
play B C1
88 tengen-owl_attack A1 captured A2
#? [\? captured point A2 holds a stone.*]

89 tengen-owl_defend A1 captured J9
#? [\? captured point J9 lies outside the group's region.*]

90 tengen-owl_attack captured B1
#? [\? syntax error: expected: tengen-owl_attack <vertex> \[<vertex>...\] \[captured <vertex>...\]]

91 tengen-owl_defend A1 captured
#? [\? syntax error.*]

92 tengen-owl_defend B1 captured A1
#? [\? B1 is empty.*]
