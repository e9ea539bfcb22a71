"""The hand-placed points and borders of the map of Westeros that tests/generators/agot_map.py turns into
content/agot/board_layout.yaml. Designed for this project (see that script's docstring); y grows southwards.

POINTS are drawn DX to the right of where they are written, inside a drawing of SIZE; BORDERS are
(area, area or None for the drawing's edge, "chain of points"), each border once.
"""
from __future__ import annotations

SIZE = (1360, 1700)
DX = 160  # the continent written from x = 0 leaves room on both sides for the seas and their islands

_POINTS = """
# the frame, the Wall's ends and the sea borders that reach the frame
F_tl -160 0; F_tr 1200 0; F_br 1200 1700; F_bl -160 1700; bt1 150 0; bt2 735 0
fl1 -160 690; fl2 -160 1215; fr1 1200 430; fr2 1200 920; fr3 1200 1300; fb1 600 1700
ib1 -60 805; gsx 140 985; ib2 -90 910; ib3 20 1040; gs1 40 1125
# the North
c00 150 30; c01 735 30; c02 760 105
cb3 170 85; cb2 230 140; cb1 290 200; c43 318 262
k1 810 120; k2 860 160; k3 880 210; k4 860 255; c03 815 280
w1 780 310; w2 770 350; c04 790 385; h1 820 398; c05 845 402
ww1 895 385; ww2 955 395; ww3 1000 432; ww4 992 478; ww5 945 500; c06 882 506
hp1 862 515; hp2 748 522; hpo1 864 606; hpo2 746 610; h3 672 526; c07 615 548
m1 596 590; c08 592 635; t1 612 668; c09 640 688
f1 650 662; f2 668 638; f3 684 646; f4 690 672; f5 712 650; f6 748 648; f7 752 675; f8 780 660; f9 800 668
f10 795 692; f11 830 700; f12 852 738
c10 832 762; mm1 870 770; mm2 905 778; c11 910 785
e1 985 800; e2 1015 840; e3 1005 880; c12 955 895; mm3 925 912; c13 895 918
cc1 930 925; cc2 965 935; cc3 990 955; cc4 965 972; cc5 920 985; cc6 855 978; cc7 830 978; c14 790 995
kl1 765 1035; c15 770 1080; kw1 785 1095; kw2 830 1102; c16 872 1095; kw3 885 1118; c17 895 1140
s1 915 1160; sp1 935 1190; sp2 942 1290; spo1 1040 1188; spo2 1044 1292
s2 955 1305; s3 975 1322; s4 962 1340; s5 930 1352; s6 880 1338; c18 835 1322
b1 785 1330; b2 735 1345; c19 700 1368; y1 730 1402; y2 775 1418; c20 822 1420
su1 875 1410; su2 925 1402; su3 968 1408; su4 992 1430; su5 1000 1470; pp1 990 1515; pp2 880 1535
ppo1 994 1628; ppo2 876 1632; c21 852 1548
ss1 830 1578; ss2 770 1595; c22 710 1600; sf1 655 1606; sf2 600 1608; sf3 548 1596; c23 520 1580
tt1 480 1565; c24 445 1545; tt2 410 1510; c25 382 1470
op1 370 1455; op2 356 1352; opo1 272 1455; opo2 262 1352; c26 352 1345
hg1 310 1341; c27 270 1335; hg2 228 1318; c28 198 1292; sr1 172 1265; c29 160 1230
sr2 165 1190; c30 190 1150; sr3 215 1128; c31 252 1112; lp1 246 1102; lp2 246 1010; lpo1 146 1102; lpo2 146 1010
c32 262 980; r1 265 972; c33 268 965; r2 305 908; c34 322 882; sg1 318 848; sg2 330 815; c35 348 805
g1 332 788; c36 312 780; ff1 265 790; ff2 215 792; c37 168 772; ff3 128 738; c38 150 700
ff4 200 688; ff5 250 690; c39 290 692; g2 305 685; c40 318 665; wf1 300 645; c41 282 628
st1 190 626; st2 118 595; st3 105 545; st4 140 498; st5 205 482; c42 262 478
wp1 275 458; wp2 288 352; wpo1 182 450; wpo2 190 340; wf3 305 318
# inland borders
j1 650 150; n1 530 175; n2 410 205; n3 320 250; n4 710 210; n5 775 258
n6 300 505; n7 320 565; n8 310 605; n9 720 420; n10 640 470; j2 560 522; n11 858 455; n12 585 535
n13 510 560; j3 440 595; n14 380 635; n15 450 680; j4 462 760; n16 300 735; n17 400 790; j5 532 745; n18 565 690
j6 535 825; n19 440 862; n20 680 725; j7 705 760; n21 760 772; n22 680 790; j8 655 835; j9 680 880
n23 740 865; j10 790 855; n24 845 825; n25 850 875; n26 625 915; j11 580 962; n27 480 965; j12 400 978; n28 330 985
j13 760 940; j14 625 995; j15 700 985; j19 650 1112; j17 515 1030; j18 560 1110; j16 395 1055
j20 722 1135; j21 720 1200; j22 815 1195; j23 440 1195; j24 470 1280; j25 630 1270; j26 470 1345; j27 505 1435
j29 620 1350; j28 515 1420; j30 665 1395; j31 560 1495; j32 630 1500; j33 700 1505; j34 815 1468
# the Iron Islands: Pyke with its port, and two islets
pk1 110 818; pk2 112 935; pk3 78 962; pk4 22 950; pk5 -10 888; pk6 35 822; pko1 212 816; pko2 215 935
gw1 -25 820; gw2 -5 812; gw3 4 830; gw4 -16 842
hl1 -25 955; hl2 0 950; hl3 5 968; hl4 -18 975
# Dragonstone with its port
d1 972 985; d2 1040 970; d3 1110 995; d4 1125 1040; dp1 1115 1085; dp2 975 1088; d5 960 1040
dpo1 1113 1168; dpo2 978 1170
# the Arbor
a1 195 1490; rx 240 1345; a2 255 1515; a3 278 1560; a4 262 1635; a5 205 1645; a6 165 1600; a7 168 1530
"""

BORDERS = [
    # the drawing's edge (and the Wall)
    ("castle_black", None, "c00 c01"),
    ("bay_of_ice", None, "fl1 F_tl bt1 c00"),
    ("the_shivering_sea", None, "c01 bt2 F_tr fr1"),
    ("sunset_sea", None, "fl1 fl2"),
    ("the_narrow_sea", None, "fr1 fr2"),
    ("shipbreaker_bay", None, "fr2 fr3"),
    ("east_summer_sea", None, "fr3 F_br fb1"),
    ("west_summer_sea", None, "fb1 F_bl fl2"),
    # seas meeting seas
    ("bay_of_ice", "sunset_sea", "c38 fl1"),
    ("the_shivering_sea", "the_narrow_sea", "ww3 fr1"),
    ("sunset_sea", "ironmans_bay", "c37 ib1 ib2 ib3"),
    ("ironmans_bay", "the_golden_sound", "ib3 gsx c33"),
    ("sunset_sea", "the_golden_sound", "ib3 gs1 c30"),
    ("sunset_sea", "west_summer_sea", "c29 fl2"),
    ("the_narrow_sea", "shipbreaker_bay", "cc3 fr2"),
    ("shipbreaker_bay", "blackwater_bay", "cc5 c16"),
    ("shipbreaker_bay", "east_summer_sea", "s3 fr3"),
    ("sea_of_dorne", "east_summer_sea", "s5 su3"),
    ("west_summer_sea", "east_summer_sea", "sf2 fb1"),
    ("west_summer_sea", "redwyne_straights", "c27 rx a1"),
    ("west_summer_sea", "redwyne_straights", "a4 c24"),
    # the coasts, clockwise from the Wall, and the ports on them
    ("castle_black", "bay_of_ice", "c00 cb3 cb2 cb1 c43"),
    ("castle_black", "the_shivering_sea", "c01 c02"),
    ("karhold", "the_shivering_sea", "c02 k1 k2 k3 k4 c03"),
    ("winterfell", "the_shivering_sea", "c03 w1 w2 c04"),
    ("white_harbor", "the_shivering_sea", "c04 h1 c05"),
    ("widows_watch", "the_shivering_sea", "c05 ww1 ww2 ww3"),
    ("widows_watch", "the_narrow_sea", "ww3 ww4 ww5 c06"),
    ("white_harbor", "the_narrow_sea", "c06 hp1"),
    ("white_harbor", "port_of_white_harbor", "hp1 hp2"),
    ("port_of_white_harbor", "the_narrow_sea", "hp1 hpo1 hpo2 hp2"),
    ("white_harbor", "the_narrow_sea", "hp2 h3 c07"),
    ("moat_cailin", "the_narrow_sea", "c07 m1 c08"),
    ("the_twins", "the_narrow_sea", "c08 t1 c09"),
    ("the_fingers", "the_narrow_sea", "c09 f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 c10"),
    ("the_mountains_of_the_moon", "the_narrow_sea", "c10 mm1 mm2 c11"),
    ("the_eyrie", "the_narrow_sea", "c11 e1 e2 e3 c12"),
    ("the_mountains_of_the_moon", "the_narrow_sea", "c12 mm3 c13"),
    ("crackclaw_point", "the_narrow_sea", "c13 cc1 cc2 cc3"),
    ("crackclaw_point", "shipbreaker_bay", "cc3 cc4 cc5"),
    ("crackclaw_point", "blackwater_bay", "cc5 cc6 cc7 c14"),
    ("kings_landing", "blackwater_bay", "c14 kl1 c15"),
    ("kingswood", "blackwater_bay", "c15 kw1 kw2 c16"),
    ("kingswood", "shipbreaker_bay", "c16 kw3 c17"),
    ("storms_end", "shipbreaker_bay", "c17 s1 sp1"),
    ("storms_end", "port_of_storms_end", "sp1 sp2"),
    ("port_of_storms_end", "shipbreaker_bay", "sp1 spo1 spo2 sp2"),
    ("storms_end", "shipbreaker_bay", "sp2 s2 s3"),
    ("storms_end", "east_summer_sea", "s3 s4 s5"),
    ("storms_end", "sea_of_dorne", "s5 s6 c18"),
    ("the_boneway", "sea_of_dorne", "c18 b1 b2 c19"),
    ("yronwood", "sea_of_dorne", "c19 y1 y2 c20"),
    ("sunspear", "sea_of_dorne", "c20 su1 su2 su3"),
    ("sunspear", "east_summer_sea", "su3 su4 su5 pp1"),
    ("sunspear", "port_of_sunspear", "pp1 pp2"),
    ("port_of_sunspear", "east_summer_sea", "pp1 ppo1 ppo2 pp2"),
    ("sunspear", "east_summer_sea", "pp2 c21"),
    ("salt_shore", "east_summer_sea", "c21 ss1 ss2 c22"),
    ("starfall", "east_summer_sea", "c22 sf1 sf2"),
    ("starfall", "west_summer_sea", "sf2 sf3 c23"),
    ("three_towers", "west_summer_sea", "c23 tt1 c24"),
    ("three_towers", "redwyne_straights", "c24 tt2 c25"),
    ("oldtown", "redwyne_straights", "c25 op1"),
    ("oldtown", "port_of_oldtown", "op1 op2"),
    ("port_of_oldtown", "redwyne_straights", "op1 opo1 opo2 op2"),
    ("oldtown", "redwyne_straights", "op2 c26"),
    ("highgarden", "redwyne_straights", "c26 hg1 c27"),
    ("highgarden", "west_summer_sea", "c27 hg2 c28"),
    ("searoad_marches", "west_summer_sea", "c28 sr1 c29"),
    ("searoad_marches", "sunset_sea", "c29 sr2 c30"),
    ("searoad_marches", "the_golden_sound", "c30 sr3 c31"),
    ("lannisport", "the_golden_sound", "c31 lp1"),
    ("lannisport", "port_of_lannisport", "lp1 lp2"),
    ("port_of_lannisport", "the_golden_sound", "lp1 lpo1 lpo2 lp2"),
    ("lannisport", "the_golden_sound", "lp2 c32"),
    ("riverrun", "the_golden_sound", "c32 r1 c33"),
    ("riverrun", "ironmans_bay", "c33 r2 c34"),
    ("seagard", "ironmans_bay", "c34 sg1 sg2 c35"),
    ("greywater_watch", "ironmans_bay", "c35 g1 c36"),
    ("flints_finger", "ironmans_bay", "c36 ff1 ff2 c37"),
    ("flints_finger", "sunset_sea", "c37 ff3 c38"),
    ("flints_finger", "bay_of_ice", "c38 ff4 ff5 c39"),
    ("greywater_watch", "bay_of_ice", "c39 g2 c40"),
    ("winterfell", "bay_of_ice", "c40 wf1 c41"),
    ("the_stony_shore", "bay_of_ice", "c41 st1 st2 st3 st4 st5 c42"),
    ("winterfell", "bay_of_ice", "c42 wp1"),
    ("winterfell", "port_of_winterfell", "wp1 wp2"),
    ("port_of_winterfell", "bay_of_ice", "wp1 wpo1 wpo2 wp2"),
    ("winterfell", "bay_of_ice", "wp2 wf3 c43"),
    # islands
    ("pyke", "ironmans_bay", "pk2 pk3 pk4 pk5 pk6 pk1"),
    ("pyke", "port_of_pyke", "pk1 pk2"),
    ("port_of_pyke", "ironmans_bay", "pk1 pko1 pko2 pk2"),
    ("pyke", "ironmans_bay", "gw1 gw2 gw3 gw4 gw1"),
    ("pyke", "ironmans_bay", "hl1 hl2 hl3 hl4 hl1"),
    ("dragonstone", "shipbreaker_bay", "dp1 d4 d3 d2 d1 d5 dp2"),
    ("dragonstone", "port_of_dragonstone", "dp1 dp2"),
    ("port_of_dragonstone", "shipbreaker_bay", "dp1 dpo1 dpo2 dp2"),
    ("the_arbor", "redwyne_straights", "a1 a2 a3 a4"),
    ("the_arbor", "west_summer_sea", "a4 a5 a6 a7 a1"),
    # the North inland
    ("castle_black", "karhold", "c02 j1"),
    ("castle_black", "winterfell", "j1 n1 n2 n3 c43"),
    ("karhold", "winterfell", "j1 n4 n5 c03"),
    ("winterfell", "the_stony_shore", "c42 n6 n7 n8 c41"),
    ("winterfell", "white_harbor", "c04 n9 n10 j2"),
    ("white_harbor", "widows_watch", "c05 n11 c06"),
    ("white_harbor", "moat_cailin", "j2 n12 c07"),
    ("winterfell", "moat_cailin", "j2 n13 j3"),
    ("winterfell", "greywater_watch", "j3 n14 c40"),
    ("greywater_watch", "moat_cailin", "j3 n15 j4"),
    ("greywater_watch", "flints_finger", "c39 n16 c36"),
    ("greywater_watch", "seagard", "j4 n17 c35"),
    ("moat_cailin", "seagard", "j4 j5"),
    ("moat_cailin", "the_twins", "c08 n18 j5"),
    # the Riverlands and the Vale
    ("seagard", "the_twins", "j5 j6"),
    ("seagard", "riverrun", "j6 n19 c34"),
    ("the_twins", "the_fingers", "c09 n20 j7"),
    ("the_fingers", "the_mountains_of_the_moon", "j7 n21 c10"),
    ("the_twins", "the_mountains_of_the_moon", "j7 n22 j8"),
    ("the_twins", "riverrun", "j6 j8"),
    ("riverrun", "the_mountains_of_the_moon", "j8 j9"),
    ("harrenhal", "the_mountains_of_the_moon", "j9 n23 j10"),
    ("the_eyrie", "the_mountains_of_the_moon", "c11 n24 n25 c12"),
    ("crackclaw_point", "the_mountains_of_the_moon", "j10 c13"),
    ("riverrun", "harrenhal", "j9 n26 j11"),
    ("riverrun", "stoney_sept", "j11 n27 j12"),
    ("riverrun", "lannisport", "j12 n28 c32"),
    ("harrenhal", "crackclaw_point", "j10 j13"),
    ("harrenhal", "blackwater", "j13 j14"),
    ("harrenhal", "stoney_sept", "j14 j11"),
    ("crackclaw_point", "blackwater", "j13 j15"),
    ("crackclaw_point", "kings_landing", "j15 c14"),
    ("blackwater", "kings_landing", "j15 j19"),
    ("blackwater", "stoney_sept", "j14 j17"),
    ("blackwater", "searoad_marches", "j17 j18"),
    ("blackwater", "the_reach", "j18 j19"),
    ("stoney_sept", "lannisport", "j12 j16"),
    ("stoney_sept", "searoad_marches", "j16 j17"),
    ("lannisport", "searoad_marches", "j16 c31"),
    # the Crownlands, the Reach, the Stormlands
    ("kings_landing", "the_reach", "j19 j20"),
    ("kings_landing", "kingswood", "j20 c15"),
    ("kingswood", "the_reach", "j20 j21"),
    ("kingswood", "the_boneway", "j21 j22"),
    ("kingswood", "storms_end", "j22 c17"),
    ("storms_end", "the_boneway", "j22 c18"),
    ("searoad_marches", "the_reach", "j18 j23"),
    ("searoad_marches", "highgarden", "j23 c28"),
    ("highgarden", "the_reach", "j23 j24"),
    ("the_reach", "the_boneway", "j21 j25"),
    ("the_reach", "dornish_marches", "j24 j25"),
    ("highgarden", "dornish_marches", "j24 j26"),
    ("highgarden", "oldtown", "j26 c26"),
    ("oldtown", "dornish_marches", "j26 j27"),
    ("oldtown", "three_towers", "j27 c25"),
    ("dornish_marches", "the_boneway", "j25 j29"),
    ("dornish_marches", "princes_pass", "j29 j28"),
    ("dornish_marches", "three_towers", "j28 j27"),
    # Dorne
    ("the_boneway", "princes_pass", "j29 j30"),
    ("the_boneway", "yronwood", "j30 c19"),
    ("three_towers", "princes_pass", "j28 j31"),
    ("three_towers", "starfall", "j31 c23"),
    ("princes_pass", "starfall", "j31 j32"),
    ("princes_pass", "yronwood", "j32 j30"),
    ("starfall", "yronwood", "j32 j33"),
    ("starfall", "salt_shore", "j33 c22"),
    ("yronwood", "salt_shore", "j33 j34"),
    ("yronwood", "sunspear", "j34 c20"),
    ("salt_shore", "sunspear", "j34 c21"),
]

LABELS: dict = {}  # area -> a label point chosen by hand (else the generator finds the roomiest)


def _points() -> dict:
    out = {}
    for line in _POINTS.splitlines():
        line = line.split("#")[0]
        for item in line.split(";"):
            if item.strip():
                name, x, y = item.split()
                out[name] = (float(x) + DX, float(y))
    return out


POINTS = _points()
