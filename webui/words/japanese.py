"""The scorer's, the ledger's, the form checks' and the camera's own words (English, with the
tile, seat or number they name) in Japanese, for a Japanese page.

Those messages are built with their variable parts, so each is matched by a pattern and
rebuilt from the parts it names; a tile name or field name inside is translated too. A message
no pattern knows answers None: the page then shows only the error code's line (`messages`,
`code.*`), already Japanese, rather than English.
"""
from __future__ import annotations

import re

_SUITS = {"characters": "萬", "dots": "筒", "bamboo": "索"}
_HONOURS = {"East": "東", "South": "南", "West": "西", "North": "北", "White": "白", "Green": "發", "Red": "中",
            "plum": "梅", "orchid": "蘭", "chrysanthemum": "菊", "bamboo": "竹",
            "spring": "春", "summer": "夏", "autumn": "秋", "winter": "冬"}
_TILE_NAME = re.compile(r"(red )?([1-9]) (characters|dots|bamboo)")

# Field names the form checks name (forms.py, game.py, wins.py), and riichi's fields that the
# other rule sets refuse (scorer/unplayed_fields.py).
_FIELDS = {
    "players": "プレイヤー", "player 1": "1番席", "player 2": "2番席", "player 3": "3番席", "player 4": "4番席",
    "title": "名前", "rules": "ルール", "preset": "プリセット", "length": "長さ", "starting points": "配給原点",
    "return points": "返し点", "uma": "ウマ", "rate": "レート", "chip value": "チップ単価", "limit": "上限",
    "settlement": "支払い方", "seat": "席", "winner": "和了者", "discarder": "放銃者", "tenpai": "聴牌者",
    "nagashi mangan": "流し満貫", "reason": "理由", "scores": "点数", "han": "翻", "fu": "符",
    "yakuman": "役満", "points": "点数", "pao": "責任払い", "pao_yakuman": "責任払いの役満数", "hand": "手牌",
    "winners": "和了者", "type": "種類", "session": "対局", "honba": "本場", "riichi_sticks": "供託",
    "nukidora": "抜きドラ", "form_token": "フォーム", "chips": "チップ", "uses_table": "自動卓との連動",
    "other_counts": "支払う人の手の点", "other_hands": "支払う人の手牌",
    "riichi": "リーチ", "double_riichi": "ダブル立直", "ippatsu": "一発", "chiihou": "地和", "renhou": "人和",
    "dora_indicators": "ドラ表示牌", "ura_indicators": "裏ドラ表示牌", "takes_pot": "供託・本場の受け取り",
    "tenhou": "天和", "haitei": "海底", "houtei": "河底", "rinshan": "嶺上開花", "chankan": "槍槓",
}
_RULES = {"riichi": "リーチ麻雀", "fundamentals": "基本ルール", "chinese-classical": "中国古典ルール",
          "classical Chinese scoring": "中国古典ルール", "the Fundamentals rules": "基本ルール"}


_CODE = re.compile(r"\b([0-9])([mpszf])\b")
_CODE_SUITS = {"m": "萬", "p": "筒", "s": "索"}
_CODE_HONOURS = {"z": "東南西北白發中", "f": "梅蘭菊竹春夏秋冬"}


def _code_words(found: re.Match) -> str:
    number, suit = int(found.group(1)), found.group(2)
    if suit in _CODE_SUITS:
        return ("赤5" if number == 0 else str(number)) + _CODE_SUITS[suit]
    names = _CODE_HONOURS[suit]
    return names[number - 1] if 1 <= number <= len(names) else found.group(0)


def tile_words(text: str) -> str:
    """English tile names ("5 dots", "red 5 bamboo", "East") and single tile codes ("9s", "0m",
    "5z") in Japanese ("5筒", "赤5索", "東", "9索", "赤5萬", "白")."""
    text = _CODE.sub(_code_words, text)
    text = _TILE_NAME.sub(lambda m: ("赤" if m.group(1) else "") + m.group(2) + _SUITS[m.group(3)], text)
    return re.sub(r"\b(" + "|".join(_HONOURS) + r")\b", lambda m: _HONOURS[m.group(1)], text)


_SUIT_WORDS = {"characters": "萬子", "dots": "筒子", "bamboo": "索子"}


def _field(name: str) -> str:
    """A part of a message that is a whole word the tables know: a field, rules or a suit."""
    return _FIELDS.get(name) or _RULES.get(name) or _SUIT_WORDS.get(name) or name


# (pattern matching the whole English message, Japanese with {0}, {1}, ... for its groups).
_PATTERNS: list[tuple[str, str]] = [
    # the ledger (scorer/game)
    (r"the game is over \(.*\); start a new one", "対局は終了しています。新しい対局を始めてください。"),
    (r"(.+) is already in riichi this hand", "{0}はこの局ですでにリーチしています。"),
    (r"(.+) has (-?\d+) points; riichi needs 1000 to put on the table", "{0}の持ち点は{1}点です。リーチには供託する1000点が必要です。"),
    (r"the (\w+) rules have no penalty for a late pon; .*", "{0}のルールには遅いポンの罰則がありません。"),
    (r"(.+) is in riichi, so calls no pon, late or not", "{0}はリーチ中なので、ポンはできません。"),
    (r"the same player is named as a winner twice", "同じプレイヤーが和了者に二度入っています。"),
    (r"only a discard can be won by several players at once; name the discarder",
     "複数人の和了は捨て牌に対してだけです。放銃者を指定してください。"),
    (r"the discarder cannot be among the winners", "放銃者は和了者になれません。"),
    (r"(?:.+|a player) cannot win on their own discard; leave out the discarder for a tsumo",
     "自分の捨て牌では和了できません。ツモなら放銃者を指定しないでください。"),
    (r"(\d+) han needs fu: .*", "{0}翻には符（20、25、30、…110）が必要です。"),
    # han and fu typed without tiles (scorer/riichi/han_fu.py)
    (r"a win has at least 1 han \(a yakuman is entered as yakuman\)", "和了は1翻以上です（役満は役満の数で入れてください）。"),
    (r"no hand without a yakuman counts more than (\d+) han, so (\d+) han cannot be; (\d+) han or more is paid as "
     r"a counted yakuman \(kazoe yakuman\) under these rules",
     "役満でない手は{0}翻を超えないので、{1}翻はありえません。このルールでは{2}翻以上は数え役満です。"),
    (r"no hand without a yakuman counts more than (\d+) han, so (\d+) han cannot be; (\d+) han or more is paid as "
     r"sanbaiman under these rules",
     "役満でない手は{0}翻を超えないので、{1}翻はありえません。このルールでは{2}翻以上は三倍満です。"),
    (r"(\d+) han needs its fu \(20, 25, 30, \.\.\. 110\)", "{0}翻には符（20、25、30、…110）が必要です。"),
    (r"fu are rounded up to 10 \(seven pairs is 25\): 20, 25, 30, \.\.\. 110, not (\d+)",
     "符は10符単位に切り上げます（七対子は25符）。{0}符はありません。"),
    (r"fu go up to (\d+), not (\d+): .*",
     "符は{0}符までです（{1}符ではありません）。1翻・2翻で{0}符を超える手はなく、3翻以上で70符以上なら満貫です。{0}符と入れてください。"),
    (r"25 fu is seven pairs \(chiitoitsu\), which is itself 2 han: 1 han 25 fu cannot be",
     "25符は七対子で、七対子だけで2翻です。1翻25符の手はありません。"),
    (r"25 fu is seven pairs; won by tsumo it also has menzen tsumo, so it is at least 3 han",
     "25符は七対子です。ツモなら門前清自摸和も付くので3翻以上です。"),
    (r"under these rules pinfu tsumo earns the tsumo's 2 fu \(30 fu\): no tsumo is 20 fu",
     "このルールでは平和ツモにもツモ符2符が付いて30符です。20符のツモはありません。"),
    (r"20 fu by tsumo is pinfu tsumo, which has pinfu and menzen tsumo: at least 2 han",
     "20符のツモは平和ツモで、平和と門前清自摸和で2翻以上です。"),
    (r"a ron is at least 30 fu \(a closed hand earns 10 fu for the ron, .*\); only seven pairs is less, at 25",
     "ロンは30符以上です（門前のロンは10符が付き、鳴いて符のない手は30符に切り上げます）。それより少ないのは七対子の25符だけです。"),
    (r"uses_table: an automatic table's point display holds riichi points, .*",
     "自動卓の点数表示はリーチ麻雀の点数を表します。中国古典ルールと基本ルールの対局は自動卓と連動できません。"),
    (r"a win needs its han \(and fu below mangan\), its yakuman, or the scored result",
     "和了には翻（満貫未満は符も）か役満の数が必要です。"),
    (r"the winner cannot be liable \(pao\) for their own hand\.?", "和了者自身は責任払い（包）になりません。"),
    (r"pao covers a yakuman \(big three dragons, big four winds\); this hand has none",
     "責任払いは役満（大三元・大四喜）だけです。この和了には役満がありません。"),
    (r"(.+) declared riichi, so is ready \(tenpai\) at the draw; a riichi that was not ready is a chombo",
     "{0}はリーチしているので流局では聴牌です。聴牌でないリーチはチョンボです。"),
    (r"the (\w+) rules have no nagashi mangan", "{0}のルールには流し満貫がありません。"),
    (r"the (\w+) rules have no abortive draws; play the hand on", "{0}のルールには途中流局がありません。続けてください。"),
    (r"four riichi needs all four players in riichi; record their riichi first",
     "四家立直は四人全員のリーチが必要です。先にリーチを記録してください。"),
    (r"(.+) has one winner a hand: the first in turn from the discarder",
     "{0}では和了者は一局に一人（放銃者から見て最初の人）です。"),
    (r"a classical Chinese win needs the winner's score as points \(or the scored result\)",
     "中国古典ルールの和了には和了者の点数が必要です。"),
    (r"(\d+) points is over the limit of (\d+): a hand is paid (\d+) at most \((\d+) for .*",
     "{0}点は上限{1}点を超えています。支払いは{2}点まで（門前の満貫役・天和は{3}点）です。上限に合わせた点数で記録してください。"),
    (r"the hand was scored with a limit of (\d+), but this game's limit is (\d+): .*",
     "上限{0}点で計算された手です。この対局の上限は{1}点なので、計算し直してください。"),
    (r"a correction gives the scores of all (\d+) players, in seat order", "点数修正には{0}人全員の点数を席順で入れてください。"),
    (r"(.+) is a seat number from 0 to (\d+) \(0 is (.+)\), not .*", "{0}は0から{1}の席番号です（0は{2}）。"),
    (r"the pot does not hold that many points", "場にそれだけの点はありません。"),
    (r"a session holds at most ([\d,]+) events: .*", "一つの対局に記録できるのは{0}件までです。次の対局は新しく始めてください。"),
    (r"(\S+) games have no event .*", "{0}にはその記録はありません。"),
    # the set-up (scorer/game/config.py)
    (r"(\S+) is played by (.+) players, not (\d+)", "{0}は{1}人で遊びます（{2}人ではありません）。"),
    (r"two players have the same name; give each a different one", "同じ名前のプレイヤーがいます。別々の名前にしてください。"),
    (r"uma must add up to zero; .*", "ウマの合計は0にしてください。"),
    (r"uma is a list of (\d+) numbers by placement, .*", "ウマは順位ごとに{0}個の数です。"),
    # the form checks (webui/guard/forms.py and the pages)
    (r"players: three or four names are needed", "プレイヤー：三人か四人の名前が必要です。"),
    (r"return points: ([\d,]+) is below the starting points \(([\d,]+)\); .*",
     "返し点：{0}点は配給原点（{1}点）より少なくなっています。返し点は配給原点以上にしてください（同じならオカなし）。"),
    (r"uma: (\S+) names four players' uma; give (\d+) numbers, .*",
     "ウマ：{0}は四人麻雀のウマです。{1}人なら15,0,-15のように{1}個の数を入れてください。"),
    (r"players: a list of three or four names", "プレイヤー：三人か四人の名前が必要です。"),
    (r"(.+?): a whole number is needed(?:, not .*)?", "{0}：整数を入れてください。"),
    (r"(.+?): a number is needed(?:, not .*)?", "{0}：数を入れてください。"),
    (r"(.+?): (\S+) is not from (\S+) to (\S+)", "{0}：{1}は{2}から{3}の範囲にありません。"),
    (r"(.+?): (\S+) is not at most (\S+)", "{0}：{1}は{2}以下にしてください。"),
    (r"(.+?): (\S+) is not at least (\S+)", "{0}：{1}は{2}以上にしてください。"),
    (r"(.+?): (\d+) numbers are needed, got (\d+)", "{0}：{1}個の数が必要です（{2}個あります）。"),
    (r"(.+?): at most (\d+) characters", "{0}：{1}文字までです。"),
    (r"(.+?): letters, digits and punctuation only, no control characters", "{0}：文字・数字・記号だけにしてください。"),
    (r"(.+?): text is needed", "{0}：文字を入れてください。"),
    (r"(.+?): one of (.+)", "{0}：次のどれかです：{1}"),
    (r"discarder: the winner cannot deal in to themselves", "放銃者：和了者は自分に放銃できません。"),
    (r"session: choose the session to join", "参加する対局を選んでください。"),
    (r"(.+?): nested more than (\d+) levels deep", "{0}：入れ子が深すぎます（{1}段まで）。"),
    (r"(.+?): an object is needed", "{0}：内容がありません。"),
    # the scorer (scorer/hand_checks.py, riichi, Fundamentals, classical Chinese)
    (r"The hand has (\d+) tiles, not 14: .*", "手牌が{0}枚です。和了牌を含めて14枚（槓子は1枚多く）が必要です。"),
    (r"The winning tile \S+ \((.+?)\) is not among the concealed tiles.*", "和了牌の{0}が手牌に入っていません。手牌にも入れてください。"),
    (r"the winning tile (.+?) is not among the concealed tiles; list it there too", "和了牌の{0}が手牌に入っていません。手牌にも入れてください。"),
    (r"the tiles do not make .*: without the (.+?) the hand waits on (.+), not the .*",
     "和了形になっていません。{0}を除くと待ちは{1}で、{0}ではありません。"),
    (r"the tiles do not make .*: without the (.+?) the hand is (\d+) tiles? away from ready",
     "和了形になっていません。{0}を除くと聴牌まで{1}枚です。"),
    (r"the tiles do not make .*", "四面子一雀頭・七対子・国士無双のどれにもなっていません。"),
    (r"the hand is complete but has no yaku: a closed hand .*",
     "和了形ですが役がありません。門前のロンにはリーチ・平和・断么九・役牌などの役が必要です。"),
    (r"the hand is complete but has no yaku: an open hand .*",
     "和了形ですが役がありません。鳴いた手には役牌・断么九・染め手・対々和などの役が必要です（ドラは役ではありません）。"),
    (r"There are \w+ (red 5 \w+): a set has .*", "{0}が多すぎます。"),
    (r"There are \w+ (.+?)(?: \(.*\))?: a set has only four of each tile\.", "{0}が多すぎます。同じ牌は4枚までです。"),
    (r"(.+) is part of riichi, not of (.+): leave (\w+) out\.", "{2}はリーチ麻雀のもので、{1}にはありません。外してください。"),
    (r"a chi cannot be claimed in the Fundamentals rules .*: (\S+) must be drawn from the wall, .*",
     "基本ルールではチーできません（鳴けるのはポンとロンだけ）。{0}は山から引いた牌として手牌に入れてください。"),
    (r"the Fundamentals rules have no kans: .*", "基本ルールには槓がありません（鳴けるのはポンとロンだけ）。"),
    (r"a complete hand is four sets \(pon or chi\) and a pair; these tiles are not",
     "和了形は四つの組（ポンかチー）と雀頭です。この牌ではなっていません。"),
    (r"flowers and seasons are set aside in the Fundamentals rules", "基本ルールでは花牌を使いません。"),
    (r"these tiles are not four sets and a pair, nor a limit hand of the table",
     "四面子一雀頭にも、表の満貫役にもなっていません。"),
    (r"A ron needs the discarder: .*", "ロンには放銃者が必要です。ツモならツモを選んでください。"),
    (r"a ron needs the seat wind of the player who dealt in", "ロンには放銃者が必要です。"),
    (r"pao \(liability\) applies only to big three dragons or big four winds, and this hand has neither",
     "責任払い（包）は大三元か大四喜だけです。この手はどちらでもありません。"),
    (r"On a tsumo nobody deals in, but discarder is (\w+): leave discarder out\.", "ツモに放銃者はいません（{0}が指定されています）。"),
    (r"The winner \((.+)\) cannot deal in to themself: .*", "和了者（{0}）は自分に放銃できません。"),
    (r"Ura dora count only for a winner in riichi: .*", "裏ドラはリーチした和了者だけです。リーチを付けるか、裏ドラ表示牌を外してください。"),
    (r"There are (\d+) dora indicators; a hand has at most five .*", "ドラ表示牌が{0}枚あります。最大5枚です。"),
    (r"There are (\d+) ura indicators but (\d+) dora indicators: .*", "裏ドラ表示牌が{0}枚、ドラ表示牌が{1}枚です。裏ドラはドラ表示牌の下の牌です。"),
    (r"(.+) cannot be called: three-player has no chi", "三人麻雀にはチーがありません。"),
    (r"(.+) is not in a three-player set: only the 1 and 9 of characters are played", "{0}は三人麻雀では使いません（萬子は1と9だけ）。"),
    (r"Riichi needs a closed hand, but (.+) is called\.", "リーチは門前の手だけです（{0}を鳴いています）。"),
    (r"Ippatsu is only for a player in riichi: .*", "一発はリーチした人だけです。"),
    (r"Rinshan \(winning on the tile after a kan\) is always a tsumo\.", "嶺上開花は必ずツモです。"),
    (r"Rinshan is a win on the tile drawn after a kan, but the hand has no kan\.", "嶺上開花は槓の後の牌での和了ですが、この手に槓がありません。"),
    (r"Chankan \(robbing a kan\) is always a ron, not a tsumo\.", "槍槓は必ずロンです。"),
    (r"Haitei is a tsumo on the last tile of the wall; .*", "海底はツモでの和了です。最後の捨て牌でのロンは河底です。"),
    (r"Houtei is a ron on the last discard; .*", "河底はロンでの和了です。最後の牌でのツモは海底です。"),
    (r"A win on the tile after a kan is rinshan, not haitei: .*", "槓の後の牌での和了は嶺上開花で、海底ではありません。"),
    (r"Robbing a kan \(chankan\) is not a win on the last discard \(houtei\)\.", "槍槓と河底は同時になりません。"),
    # the camera (vision: the scan's doubts)
    (r"tile (\d+) looked most like (\S+) but is read as (\S+), which makes a valid hand",
     "{0}枚目は{1}に見えましたが、和了形になる{2}と読みました。"),
    (r"tile (\d+) \((\S+)\) is doubtful: (\d+)% sure", "{0}枚目（{1}）は自信がありません（確からしさ{2}%）。"),
    (r"no choice among the likely names of the doubtful tiles makes a valid winning hand",
     "自信のない牌をどう読み替えても和了形になりません。"),
    (r"four tiles set apart at the right read as a kan, .*", "右に離れた4枚を槓と読みました。横向き・裏向きの牌がないので上家からの明槓としました。"),
    (r"the winning tile set apart looks turned sideways: read as the winning tile", "離れた和了牌が横向きに見えますが、和了牌と読みました。"),
    (r"a group of (\d+) tiles with sideways or face-down tiles does not read as melds",
     "横向き・裏向きの牌を含む{0}枚の組は副露として読めません。"),
    (r"(\d+) tiles lie in a second row that is not melds, dora indicators or flowers; they were left out",
     "二段目の{0}枚は副露でもドラ表示牌でも花牌でもないので除きました。"),
    (r"(\d+) tiles beside the melds do not read as a meld; they were left out", "副露の横の{0}枚は副露として読めないので除きました。"),
    (r"a tile beside the melds does not read as a meld; it was left out", "副露の横の1枚は副露として読めないので除きました。"),
    (r"a tile apart from the hand is left out: (.+) has no dora indicators", "手牌から離れた1枚は除きました（{0}にはドラ表示牌がありません）。"),
    (r"(\d+) tiles apart from the hand are left out: (.+) has no dora indicators",
     "手牌から離れた{0}枚は除きました（{1}にはドラ表示牌がありません）。"),
    (r"(\d+) tiles apart from the hand are left out: a hand has at most (\d+) dora indicators",
     "手牌から離れた{0}枚は除きました（ドラ表示牌は最大{1}枚です）。"),
    (r"a concealed kan shows one face-down tile: its other end was not seen",
     "暗槓の裏向きの牌が1枚しか見えません。もう一方の端は見つかりませんでした。"),
    (r"a tile apart from the hand was not named surely enough to be read; it was left out",
     "手牌から離れた牌を確かに読めなかったので除きました。"),
    (r"(\d+) tiles apart from the hand were not named surely enough to be read; they were left out",
     "手牌から離れた{0}枚を確かに読めなかったので除きました。"),
    (r"the winning tile is not set apart: the last tile of the row is taken as the winning tile",
     "和了牌が離して置かれていないので、列の最後の牌を和了牌としました。"),
    (r"only (\d+) tiles found; a winning hand has at least (\d+): .*",
     "牌が{0}枚しか見つかりません。和了形は{1}枚以上です。副露と和了牌も含めて全体を写してください。"),
    (r"(\d+) tiles in view; a hand has at most 18 plus dora indicators: .*",
     "牌が{0}枚写っています。手牌は18枚とドラ表示牌までです。一つの手牌だけを撮ってください。"),
    (r"no tiles found in the photo: .*", "写真に牌が見つかりません。明るい所で、手牌全体を表向きに写してください。"),
    (r"the concealed kan shows (.+), which are not the same tile", "暗槓の牌（{0}）が同じ牌になっていません。"),
    (r"a face-down tile lies in an open meld", "鳴いた副露に裏向きの牌があります。"),
    (r"a flower or season \((.+)\) lies in a meld", "副露に花牌（{0}）があります。"),
    (r"the meld (.+) \((.+)\) is not a run or a set of one tile", "副露（{1}）が順子にも刻子にもなっていません。"),
    (r"a face-down tile lies among the concealed tiles", "手牌に裏向きの牌があります。"),
    (r"a concealed tile is read as (.+), but (\S+) is played without flowers and seasons", "手牌の牌を{0}と読みましたが、{1}では花牌を使いません。"),
    (r"a dora indicator is read as a flower or season, but (\S+) is played without them", "ドラ表示牌を花牌と読みましたが、{0}では花牌を使いません。"),
    (r"a dora indicator found face up is named as a tile's back", "表向きのドラ表示牌が牌の裏と読まれました。"),
    (r"(\S+) is not a winning shape", "{0}は和了形ではありません。"),
    (r"too few tiles for a hand: (\d+) concealed tiles with (\d+) melds? \(a winning hand has (\d+)\)",
     "牌が足りません：副露{1}組で手牌{0}枚です（和了形は{2}枚）。"),
    (r"too many tiles for a hand: (\d+) concealed tiles with (\d+) melds? \(a winning hand has (\d+)\)",
     "牌が多すぎます：副露{1}組で手牌{0}枚です（和了形は{2}枚）。"),
    (r"(\d+) copies of (.+?) \(a set has four\)", "{1}が{0}枚あります（各牌4枚まで）。"),
    (r"(\d+) copies of (.+?) \(a set has one of each flower and season\)", "{1}が{0}枚あります（花牌は各1枚）。"),
    (r"(\d+) red fives of (\w+) \(a set has one\)", "赤5の{1}が{0}枚あります（1枚まで）。"),
]
_COMPILED = [(re.compile(pattern, re.DOTALL), japanese) for pattern, japanese in _PATTERNS]


def in_japanese(message: str) -> str | None:
    """`message` in Japanese, or None when no pattern knows it."""
    # the ledger names the refused event by its number in the replay; the player just sent it
    message = re.sub(r"^event \d+: ", "", message.strip())
    for pattern, japanese in _COMPILED:
        found = pattern.fullmatch(message.strip())
        if found:
            parts = [tile_words(_field(g)) if g is not None else "" for g in found.groups()]
            return japanese.format(*parts)
    return None
