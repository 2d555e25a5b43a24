"""Names in the rulesets' languages: the bundled ones as the rule texts give them, and how a rule file's
names block is checked where it is written.

The expected names below were read off the seeds by hand (the citation is beside each group), not copied
from the rule files: change a name in a rule file and these tests fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ruleset

from rulecraft.errors import RuleFileError
from rulecraft.load import load_ruleset
from rulecraft.runs.validate import validate_file

# seed 003 (天九), 1 枚勝負の勝敗: civil tiles strongest first, then military ones, with the alternatives
# the seed gives (鵝 was once 和; 紅頭十 also 屏封; 伶冧六 also 鈴冧六; 六 also 大雞; 三 also 山雞, 幺雞 and,
# in Hong Kong, 么雞). Glyphs in traditional Chinese: the seed's 脚, 鶏 are 腳, 雞; its 淋 stands for 冧.
TIEN_GOW_TILES = {
    "6-6": ("天",), "1-1": ("地",), "4-4": ("人",), "1-3": ("鵝", "和"), "5-5": ("梅花",), "3-3": ("長衫",),
    "2-2": ("板凳",), "5-6": ("斧頭",), "4-6": ("紅頭十", "屏封"), "1-6": ("高腳七",), "1-5": ("伶冧六", "鈴冧六"),
    "3-6": ("九",), "4-5": ("九",), "2-6": ("八",), "3-5": ("八",), "2-5": ("七",), "3-4": ("七",),
    "2-4": ("六", "大雞"), "1-4": ("五",), "2-3": ("五",), "1-2": ("三", "山雞", "幺雞", "么雞"),
}
# seed 003: ペア勝負 and 3～4 枚勝負 (the combinations), 点数計算 and 祝儀 (the payments), 文武尊.
TIEN_GOW_RULES = {
    "supreme": "至尊", "wu-zun": "至尊", "heaven-pair": "天對", "long-seven-pair": "高腳對",
    "nine-pair": "雜九", "eight-pair": "雜八", "seven-pair": "雜七", "five-pair": "雜五",
    "heaven-nine": "天九", "earth-eight": "地八", "man-seven": "人七", "goose-five": "鵝五",
    "heaven-nine-2c": "三文天九", "earth-eight-2c": "三文地八", "man-seven-2c": "三文人七", "goose-five-2c": "三文鵝五",
    "heaven-nine-2m": "三武天九", "earth-eight-2m": "三武地八", "man-seven-2m": "三武人七", "goose-five-2m": "三武鵝五",
    "heaven-nine-quad": "四天九", "earth-eight-quad": "四地八", "man-seven-quad": "四人七", "goose-five-quad": "四鵝五",
    "he-zun": "賀尊", "si-da-he": "四大賀", "bao-zun": "包尊", "si-da-bao": "四大包", "yao-jie": "幺結",
    "qin": "擒", "qin-round": "擒", "qi-zhi": "七支", "ba-zhi": "八支", "ru": "入一/入二",
}


def test_tien_gow_tiles_have_the_names_the_seed_gives() -> None:
    names = ruleset("tien-gow").display.names
    assert names.languages == {"en": "English", "zh": "中文"}
    assert names.default == "en"
    assert {tid: names.all_names("pieces", tid).get("zh") for tid in TIEN_GOW_TILES} == TIEN_GOW_TILES
    # 文 and 武 are 文子 and 武子 in Chinese (the seed: 文 (中国語で文子) と武 (中国語で武子)).
    assert (names.value("kind", "civil", "zh"), names.value("kind", "military", "zh")) == ("文子", "武子")


def test_tien_gow_rules_have_the_names_the_seed_gives() -> None:
    names = ruleset("tien-gow").display.names
    assert {rid: names.term("rules", rid, "zh") for rid in TIEN_GOW_RULES} == TIEN_GOW_RULES
    assert names.term("options", "bunmu_son", "zh") == "文武尊"
    # The dealer's multiplier (親の倍) has no Chinese name in the seed, so it has none here.
    assert names.term("rules", "dealer", "zh") is None


def test_a_name_for_what_only_an_option_adds_is_there_when_the_option_is_taken() -> None:
    # 文尊, the 1-5 pair, is supreme only when 文武尊 is recognised (seed 003, 文武尊).
    assert ruleset("tien-gow").display.names.term("rules", "wen-zun", "zh") is None
    assert ruleset("tien-gow", bunmu_son="on").display.names.term("rules", "wen-zun", "zh") == "文尊"
    assert ruleset("tien-gow/bunmu-son").display.names.term("rules", "wu-zun", "zh") == "至尊"


def test_luk_fu_names_only_the_cards_and_suits_the_seed_names() -> None:
    rs = ruleset("luk-fu")
    names = rs.display.names
    # seed 000: 銭のスートの１は'毛Ｘ'; 十のスートの１は'百子'; the 'Ｘ銭' card called リチェン (Li Tyen)
    # or ヨチェン (Yo Tyen).
    named = {tid: names.term("pieces", tid, "zh") for tid in rs.pieces.by_type_id if names.term("pieces", tid, "zh")}
    assert named == {"coins-1": "毛X", "tens-1": "百子", "li-tyen": "X錢"}
    assert rs.pieces.types[rs.pieces.by_type_id["li-tyen"]].name == "Li Tyen / Yo Tyen (the special card)"
    # スートは '銭','索','貫','十' (weakest first); the tens are printed 拾.
    assert {s: names.value("suit", s, "zh") for s in ("coins", "strings", "myriads", "tens")} == \
        {"coins": "錢", "strings": "索", "myriads": "貫", "tens": "十"}
    assert names.values["suit"]["tens"]["zh"] == ("十", "拾")


def test_yukushi_names_its_two_calls_and_rook_and_doubt_only_english() -> None:
    names = ruleset("yukushi").display.names
    # 「ゆくし」と発声する (the challenge); 「パス」を宣言する (the pass).
    assert (names.term("verbs", "challenge", "ja"), names.term("verbs", "pass", "ja")) == ("ゆくし", "パス")
    assert names.term("verbs", "accept", "ja") is None
    for name in ("rook", "doubt"):
        assert ruleset(name).display.names.languages == {"en": "English"}


def test_a_ruleset_without_languages_has_one_its_default(tmp_path: Path) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text("name: tiny\nseats: {count: 2}\npieces: [{id: a}, {id: b}]\n"
                     "zones: [{id: deck}, {id: hand, per: seat, visibility: owner}]\n"
                     "hand: {phases: [{kind: deal, from: deck, to: hand, count: 1}]}\n", encoding="utf-8")
    names = load_ruleset(str(rules)).display.names
    assert (names.languages, names.default) == ({"en": "en"}, "en")


# ---------------------------------------------------------------------- a names block checked where written
def _overlay(tmp_path: Path, display: str) -> Path:
    path = tmp_path / "names.yaml"
    path.write_text(f"extends: tien-gow\nname: tien-gow-names\ndisplay:\n{display}", encoding="utf-8")
    return path


@pytest.mark.parametrize(("display", "where", "message"), [
    # the schema: a name is text (or a list of texts), keyed by a language code
    ('  names:\n    pieces:\n      "6-6": {zh: 5}\n', (6, 19),
     "expected a string or a list for 'zh', got the whole number 5"),
    ('  names:\n    pieces:\n      "6-6": {Chinese: 天}\n', (6, 15),
     "'Chinese' is not a valid key here: a language code"),
    ('  names:\n    rules: {qin: {zh: []}}\n', (5, 23), "'zh' needs at least 1 item"),
    ('  names:\n    tiles: {}\n', (5, 5), "unknown key 'tiles'"),
    # the build: every key names something the rules declare, in a declared language
    ('  names:\n    pieces:\n      "6-7": {zh: 天}\n', (6, 8), "unknown piece '6-7' (did you mean '6-6'?)"),
    ('  names:\n    pieces:\n      "6-6": {ja: 天}\n', (6, 15), "unknown language 'ja'; known: en, zh"),
    ('  names:\n    rules: {qim: {zh: 擒}}\n', (5, 13), "unknown rule id 'qim' (did you mean 'qin'?)"),
    ('  names:\n    values: {kind: {civl: {zh: 文}}}\n', (5, 21), "unknown kind value 'civl' (did you mean 'civil'?)"),
    ('  names:\n    values: {knd: {civil: {zh: 文}}}\n', (5, 14), "unknown piece attribute 'knd'"),
    ('  names:\n    verbs: {chalenge: {zh: 擒}}\n', (5, 13),
     "unknown move verb 'chalenge' (did you mean 'challenge'?)"),
    ('  default_language: fr\n', (4, 21), "unknown language 'fr'"),
])
def test_a_bad_names_block_is_refused_where_it_is_written(tmp_path: Path, display: str, where: tuple[int, int],
                                                          message: str) -> None:
    path = _overlay(tmp_path, display)
    report = validate_file(path)
    assert not report.ok
    first = report.diagnostics[0]
    assert (Path(first.pos.file).name, first.pos.line, first.pos.col) == ("names.yaml", *where), first.format()
    assert first.message.startswith(message), first.message


def test_a_piece_entry_names_in_a_declared_language(tmp_path: Path) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text(
        "name: tiny\nseats: {count: 2}\n"
        "pieces:\n  - {id: a, names: {fr: Ah}}\n  - {id: b}\n"
        "zones: [{id: deck}, {id: hand, per: seat, visibility: owner}]\n"
        "hand: {phases: [{kind: deal, from: deck, to: hand, count: 1}]}\n"
        "display: {languages: {en: English, de: Deutsch}}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load_ruleset(str(rules))
    (d,) = err.value.diagnostics
    assert (d.pos.line, d.pos.col) == (4, 21), d.format()
    assert d.message.startswith("unknown language 'fr'; known: en, de")


def test_generated_pieces_fill_their_names_from_their_attributes(tmp_path: Path) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text(
        "name: tiny\nseats: {count: 2}\n"
        "pieces:\n  - {id: '{suit}-{rank}', generate: {suit: [cups], rank: [1, 2]},\n"
        "     names: {it: ['{rank} di {suit}']}}\n"
        "zones: [{id: deck}, {id: hand, per: seat, visibility: owner}]\n"
        "hand: {phases: [{kind: deal, from: deck, to: hand, count: 1}]}\n"
        "display:\n  languages: {en: English, it: Italiano}\n  names: {pieces: {cups-1: {it: Asso di coppe}}}\n",
        encoding="utf-8")
    names = load_ruleset(str(rules)).display.names
    # the table keyed by id overrides the template for the one piece it names
    assert names.term("pieces", "cups-1", "it") == "Asso di coppe"
    assert names.term("pieces", "cups-2", "it") == "2 di cups"
    assert names.lookup("Asso", "pieces") == []
    assert names.lookup("2 di cups", "pieces") == ["cups-2"]


def test_an_overlay_deleting_what_its_base_names_loads_and_a_misspelt_name_still_does_not(tmp_path: Path) -> None:
    """Hearts' base names its pass phase and shows 'passes'; an overlay without the pass deletes the phase:
    the base's name for it names nothing now (no mistake), while a name nothing ever declared stays one."""
    path = tmp_path / "no-pass.yaml"
    path.write_text("extends: hearts\nname: no-pass\nhand:\n  phases:\n    - {id: pass, $delete: true}\n",
                    encoding="utf-8")
    rs = load_ruleset(str(path))
    assert "pass" not in [p.id for p in rs.phases]
    assert "pass" not in rs.display.names.terms.get("phases", {})
    path.write_text(path.read_text(encoding="utf-8") + "display:\n  names:\n    phases: {pas: {en: passing}}\n",
                    encoding="utf-8")
    with pytest.raises(RuleFileError, match=r"no-pass.yaml:8:14: error: unknown phase 'pas'"):
        load_ruleset(str(path))
