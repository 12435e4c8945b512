"""Photoreal renders with Blender (Cycles on the CPU): tiles as rounded blocks with a face layer
and a coloured back layer, on table cloths, lit by an area light, seen by a phone or webcam.

`python -m vision.render.photoreal --count N --seed S` draws the faces with the 2-D renderer
(`vision/render/faces.py`: the CC0 riichi art and the drawn styles), writes them and a scene
plan to the cache (`$TENBOU_CACHE/photoreal`, never the repo), and runs
`blender -b -P vision/render/photoreal/blender_scene.py -- plan.json`, which renders each frame
and writes each tile's whole box and face box, projected from its corners. Seeded: the same
seed gives the same plan (Cycles' own sampling noise aside). Needs Debian's `blender` package.
"""
