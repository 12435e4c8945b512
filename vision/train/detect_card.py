"""The tile detector's model card (`models/TILE_DETECTOR.md`), written from what training and
the held-out measurement printed, never from figures typed in by hand."""
from __future__ import annotations

from pathlib import Path

from .detect_eval import Finding
from .photos import HELD_OUT_SHARE, TUNE_SHARE


def write(path: Path, report: dict, held_out: dict[str, Finding], size_bytes: int) -> None:
    s = report["settings"]
    last = report["history"][-1] if report.get("history") else {}
    best = next((row for row in report.get("history", []) if row["epoch"] == report["best_epoch"]), last)
    rows = "\n".join(f"| {name} | {f.recall:.1%} ({f.found}/{f.tiles}) | "
                     f"{f.false_per_photo:.2f} | {f.photos} |" for name, f in held_out.items())
    minutes = report.get("minutes")
    lookalikes = (f" and {report['lookalikes']} tile-free pictures crowded with look-alikes (every detection there false)"
                  if report.get("lookalikes") else "")
    text = f"""# Tile detector (`tile_detector.onnx`)

Finds every tile in a photo in one pass: each tile's face box, its whole box (face and the body
that shows), its pose (upright, sideways, face down) and how sure it is. The classifier
(`tile_classifier.onnx`, [MODEL_CARD.md](MODEL_CARD.md)) then names each face. Input: the photo
as BGR, its long side scaled to {s.get('side_infer', 512)} and padded to multiples of 32 (`vision/detect.py: letterbox`), float32
NCHW in 0-255; output: 11 maps at a quarter of the input's size, decoded by `vision/detect.py`.
Built by `python -m vision.train.detector` ({size_bytes / 1e6:.1f} MB, float32{f"; {minutes} min on 2 shared CPU cores" if minutes else ""}).
{report.get("note", "")}

## Network
CenterNet-style: a plain strided backbone of 3x3 conv + batch-norm + ReLU layers ({s['width'] // 2}-{s['width']}-{s['width'] * 2}-{s['width'] * 3}-{s['width'] * 4}
channels down to stride 32, so a tile filling a sixth of the frame is still seen whole), a light
feature pyramid back up to stride 4 (a tile of ten pixels keeps its own centre cell), and one
head: heatmaps for face-up and face-down tile centres, the face's size and the centre's offset,
a sideways logit, and how far the body shows beyond the face on each side. Chosen over a
YOLO-style anchor head because tiles are one shape at many sizes and often touch: a centre per
tile needs no anchors and no tuning of box overlaps, and decoding is a 3x3 peak search. Peaks of
one tile in two cells are merged when their faces overlap by more than 60% of the smaller.

## Data
- **Real photos**: "Chinese Mahjong Detection" v4 by the Roboflow workspace
  riichimahjongdetection, **CC BY 4.0**, as exported in the public GitHub repository
  alanchoi00/mahjong_detection (`shared/data/photos/hk-roboflow`): Chinese / Hong Kong sets at
  real tables, every tile boxed. Split by shooting group, never by box or photo
  (`vision/train/photos.py`: the photos of one evening, one numbered run or one upload stay on
  one side): {HELD_OUT_SHARE}% of groups held out (only ever measured), {TUNE_SHARE}% for tuning (choosing the
  epoch and the threshold), the rest ({report.get('train_photos', '?')} photos) for training. Their boxes hug the
  face; they teach the face-up heatmap and the face's size, not pose or body (masked out).
- **Rendered riichi hands** (`vision/render`, drawn fresh for every sample): the CC0 FluffyStuff
  riichi art and faces the code draws, hands lying (straight above to 50 degrees) or standing and
  seen from the player's seat (the top edge above each face), called melds with sideways and
  face-down tiles, dora indicators, shadows, glare, blur, noise and JPEG. They teach everything.
- **Tile-free pictures**: cloths with printed patterns, wood, felt, and things that look like
  tiles: keyboards, dominoes, cards, book spines, screens with text (`vision/render/clutter.py`).
- Every sample is scaled so a face is 10-120 pixels wide, set on such a backdrop where it does
  not fill the square (so real tables and rendered hands sit among clutter), cut to
  {s['side']}x{s['side']}, flipped, now and then turned a quarter (real photos; rendered ones with
  their poses turned too), and recoloured. Shares: {s['real_share']:.0%} real, {s['empty_share']:.0%} tile-free, the rest rendered.

## Settings
{", ".join(f"`{k}`={v}" for k, v in s.items())}; AdamW, one-cycle learning rate; focal loss on
the heatmaps (CenterNet's), L1 on size, offset and body, cross-entropy on pose. Seeded: epoch e's
samples come from the seed and e alone; `--resume` goes on from the last epoch's checkpoint.

## Choosing what ships
After each epoch the model was measured on the tuning photos and on a riichi check of
{s['riichi_check']} rendered riichi hands (half standing at 5-30 degrees, half lying at 30-45){lookalikes}; the epoch
best on the two together ships: epoch {report['best_epoch']} of {s['epochs']} (tuning: {best.get('tune', '?')};
riichi check: {best.get('riichi', '?')}). The threshold on the heatmaps, {report['threshold']}, was then chosen
on all the tuning photos and the riichi check (tuning: {report.get('tune', '?')}; riichi check:
{report.get('riichi', '?')}).

## Measured on photos never trained or tuned on
Face boxes against the labels, matched one to one at IoU >= 0.5.

| photos | tiles found | false tiles a photo | photos |
|---|---|---|---|
{rows}

`python -m bench.vision` measures the whole pipeline (found and named, photos read exactly, red
fives, time a photo) beside the PyPI `mahjong-detector` on these photos and rendered hands.

## Limits
- No real riichi photos were available: riichi tables are judged on rendered hands only, and the
  real photos are of Chinese / Hong Kong sets.
- The whole-tile box is learnt from rendered tiles alone (the real labels box faces).
- A face-down tile is learnt from rendered backs alone (the real photos do not box walls or backs).
"""
    path.write_text(text, encoding="utf-8")
