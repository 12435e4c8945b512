"""`tenbou scan PHOTO` — read a winning hand from a photo and score it.

Shows what it saw (tiles, melds, doubts) and, when the hand is complete, its score.
`--json` prints `{"tiles": [...], "hand": <request>, "result": <response or null>}`;
`--annotate OUT.png` draws the boxes and names on the photo. Exit status: 0 scored,
1 the photo holds no hand Tenbou can score (the reason on stderr), 2 the file is not a
usable photo.
"""
from __future__ import annotations

import argparse
import json
import sys

from scorer import score
from scorer.request import RULE_SETS

NO_HAND = 1
BAD_PHOTO = 2
NEXT_SEAT = {"E": "S", "S": "W", "W": "N", "N": "E"}


def register(sub) -> None:
    parser = sub.add_parser("scan", help="read a winning hand from a photo and score it",
                            description="Read a winning hand from a photo (JPEG, PNG or WebP) and score it.")
    parser.add_argument("photo", help="the photo of the hand")
    parser.add_argument("--json", action="store_true", help="print tiles, hand and result as JSON")
    parser.add_argument("--annotate", metavar="OUT.png", help="write the photo with the tiles found drawn on it")
    add_situation_arguments(parser)
    parser.set_defaults(run=run)


def add_situation_arguments(parser: argparse.ArgumentParser) -> None:
    """What a photo cannot show: how the hand was won, and the winds."""
    parser.add_argument("--rules", choices=RULE_SETS,
                        help="riichi, fundamentals or chinese-classical (default: riichi, or chinese-classical "
                             "where the photo shows a flower or season)")
    parser.add_argument("--tsumo", action="store_true", help="won by self-draw (default: ron)")
    parser.add_argument("--riichi", action="store_true", help="the winner had declared riichi")
    parser.add_argument("--seat", choices="ESWN", default="E", help="the winner's seat wind (default E)")
    parser.add_argument("--round", choices="ESWN", default="E", help="the round wind (default E)")
    parser.add_argument("--from", dest="discarder", choices="ESWN",
                        help="on a ron, the seat that dealt in (default: the next seat)")


def situation_of(args: argparse.Namespace) -> dict:
    situation = {"tsumo": args.tsumo, "riichi": args.riichi, "seat_wind": args.seat, "round_wind": args.round}
    if args.rules:   # else the photo's tiles choose (`vision.scan.rules_seen`)
        situation["rules"] = args.rules
    if not args.tsumo:
        situation["discarder"] = args.discarder or NEXT_SEAT[args.seat]
    return situation


def run(args: argparse.Namespace) -> int:
    from vision.classify import ModelMissing
    from vision.image_io import PhotoError
    from vision.scan import ScanError, scan_file, use_pipeline_threads

    use_pipeline_threads()
    try:
        scan = scan_file(args.photo, situation=situation_of(args))
    except ScanError as error:
        if args.annotate and error.found:
            write_annotation(args.annotate, args.photo, error.found)
        if args.json and error.named is not None:   # too few for a hand: the tiles seen, for tools
            print(json.dumps({**error.named.to_json(), "result": None}, ensure_ascii=False))
        print(f"tenbou scan: {error.message}", file=sys.stderr)
        return NO_HAND
    except PhotoError as error:
        print(f"tenbou scan: {error.message}", file=sys.stderr)
        return BAD_PHOTO
    except ModelMissing as error:
        print(f"tenbou scan: {error}", file=sys.stderr)
        return NO_HAND
    if args.annotate and not write_annotation(args.annotate, args.photo, scan):
        return BAD_PHOTO
    result = score(scan.hand) if scan.scorable else None
    if args.json:
        print(json.dumps({**scan.to_json(), "result": result}, ensure_ascii=False))
    else:
        print("\n".join(describe(scan, result)))
    if result is None:
        structural = scan.repaired.reading.structural if scan.repaired else []
        reason = structural[0] if structural else "no hand could be read from the tiles found"
        print(f"tenbou scan: {reason}", file=sys.stderr)
        return NO_HAND
    if not result.get("ok"):
        error = result["error"]
        print(f"tenbou scan: {error['message']} ({error['code']})", file=sys.stderr)
        return NO_HAND
    return 0


def write_annotation(out: str, photo_path: str, seen) -> bool:
    """Draw a scan (or, when there was no hand, the bare tiles found) on the photo."""
    import cv2

    from vision.annotate import draw_found, draw_scan
    from vision.image_io import load_photo

    photo = load_photo(photo_path).image
    image = draw_found(photo, seen) if isinstance(seen, list) else draw_scan(photo, seen)
    try:
        if cv2.imwrite(out, image):
            return True
    except cv2.error:
        pass
    print(f"tenbou scan: cannot write {out} (use a .png or .jpg name in a folder you may write to)", file=sys.stderr)
    return False


def describe(scan, result: dict | None) -> list[str]:
    """What the camera saw, in the players' words."""
    from vision.hand import CONCEALED, DORA, MELD, WIN

    from vision.hand_request import DEFAULT_RULES, plays_dora, shown_order

    lines = [f"{len(scan.detections)} tiles found"]
    if scan.rules_guessed and scan.situation["rules"] != DEFAULT_RULES:
        lines.append(f"read with {scan.situation['rules']} rules: the photo shows a flower or season "
                     "(--rules riichi reads it otherwise)")
    names = scan.labels
    # in the order the doubts count tiles ("tile 3"): the concealed tiles sorted, as the hand reads
    place = {i: n for n, i in enumerate(shown_order(scan.arrangement, scan.detections, names, scan.situation))}
    for group in scan.arrangement.groups:
        members = sorted(group.members, key=place.get) if group.role == CONCEALED else group.members
        shown = " ".join(_shown(names[i], scan.detections[i].pose) for i in members)
        if group.role == CONCEALED:
            lines.append(f"  concealed: {shown}")
        elif group.role == WIN:
            lines.append(f"  winning tile: {shown}")
        elif group.role == MELD:
            lines.append(f"  meld: {shown}")
        elif group.role == DORA:   # as the rules take them: flowers, or no part of the hand
            lines.append(f"  {'dora indicators' if plays_dora(scan.situation) else 'apart from the hand'}: {shown}")
    if scan.hand:
        melds = ", ".join(f"{m['kind']} {m['tiles']}" + (f" from {m['from']}" if "from" in m else "") for m in scan.hand["melds"])
        lines.append(f"hand: {scan.hand['concealed']} (winning tile {scan.hand['win_tile']})" + (f", melds: {melds}" if melds else ""))
    for doubt in scan.doubts:
        lines.append(f"  doubt: {doubt}")
    if result and result.get("ok"):
        lines += _explain(scan.hand, result)
    return lines


def _shown(label: str, pose: str) -> str:
    if label == "back":
        return "[face down]"
    return f"{label}(sideways)" if pose == "sideways" else label


def _explain(request: dict, response: dict) -> list[str]:
    try:
        from webui.words.explain import explain
    except ImportError:
        return [f"{response.get('han')} han {response.get('fu')} fu: {response.get('points')} points"]
    return list(explain(request, response))
