"""Photoreal renders with Blender (Cycles on the CPU): tiles as rounded blocks with a face layer
and a coloured back layer; the hand standing (seen from the seat) or lying, its called melds
apart with the called tile turned and a concealed kan's ends face down; discards and a wall row
beyond it; table cloths, a wall with shelves of CJK-titled books behind, cups and boxes beside;
an area light and now and then the sun (hard shadows); a phone (4:3) or webcam (16:9) camera.

`python -m vision.render.photoreal --count N --seed S` draws the faces with the 2-D renderer
(`vision/render/faces.py`: the CC0 riichi art and the drawn styles), writes them and a scene
plan to the cache (`$TENBOU_CACHE/photoreal`, never the repo), and runs
`blender -b -P vision/render/photoreal/blender_scene.py -- plan.json`, which renders each frame
and writes each tile's label, pose, whole box and face box, projected from its corners; each
frame is then metered as a camera would (`meter.py`: its brightest faces just under white, give
or take a misjudged half stop) and written as a JPEG. Seeded: the same
seed gives the same plan (Cycles' own sampling noise aside). Needs Debian's `blender` package.
"""
