"""Runs inside Blender (`blender -b -P blender_scene.py -- plan.json`): builds each planned frame
(rounded tile blocks, a face layer with its picture, a coloured back layer; the hand standing or
lying with its called melds, the called tile turned; discards and a wall row beyond it; a cloth;
a wall with a room's picture, cups, boxes and dice; an area light and now and then the sun; a phone or
webcam camera), renders it with Cycles on the CPU and writes the tiles' boxes projected from
their corners (`boxes.json`, then `labels.json` once `meter.py` has developed the frames: per frame, each tile's label, pose, whole box and face box in
pixels). Only Blender's own Python runs this file; the plan comes from `__main__.py`.
"""
import json
import math
import sys
from pathlib import Path

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Vector


def material(name, colour, roughness=0.35, image=None, glow=0.0):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    if image is not None:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = bpy.data.images.load(image)
        links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        if glow:   # a picture on a far wall that the lights aimed at the table would leave black
            links.new(tex.outputs["Color"], bsdf.inputs["Emission"])
            bsdf.inputs["Emission Strength"].default_value = glow
        bump = nodes.new("ShaderNodeBump")      # the engraved look: ink sits a little below the face
        bump.inputs["Strength"].default_value = 0.25
        links.new(tex.outputs["Color"], bump.inputs["Height"])
        links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    return mat


def block(name, size, location, mat, bevel):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
    obj = bpy.context.object
    obj.name = name
    obj.scale = size
    bpy.ops.object.transform_apply(scale=True)
    mod = obj.modifiers.new("bevel", "BEVEL")
    mod.width, mod.segments = bevel, 3
    obj.data.materials.append(mat)
    return obj


def corners(centre, size):
    cx, cy, cz = centre
    sx, sy, sz = (s / 2 for s in size)
    return [Vector((cx + dx * sx, cy + dy * sy, cz + dz * sz)) for dx in (-1, 1) for dy in (-1, 1) for dz in (-1, 1)]


def face_plane(name, centre, size, rotation, image, colour):
    bpy.ops.mesh.primitive_plane_add(size=1.0, location=centre, rotation=rotation)
    plane = bpy.context.object
    plane.name = name
    plane.scale = (size[0], size[1], 1.0)
    plane.data.materials.append(material(name, colour, 0.25, image))


def lying(name, tile, cx, cy, frame, mats, folder):
    """A tile lying on the table, face up (upright or turned sideways) or face down; its whole
    box's and face's corners."""
    w, h, d = frame["size"]
    down, sideways = tile["face"] is None, tile["pose"] == "sideways"
    tw, th = (h, w) if sideways else (w, h)     # extent along x and y
    top, bottom = (mats["back"], mats["body"]) if down else (mats["body"], mats["back"])
    up, low = (d * 0.4, d * 0.6) if down else (d * 0.6, d * 0.4)
    block(f"{name}f", (tw, th, up), (cx, cy, low + up / 2), top, 0.0015)
    block(f"{name}b", (tw, th, low), (cx, cy, low / 2), bottom, 0.0015)
    face = None
    if not down:
        centre = (cx, cy, d + 0.0002)
        face_plane(f"{name}p", centre, (w * 0.9, h * 0.9), (0, 0, math.pi / 2 if sideways else 0),
                   str(folder / tile["face"]), frame["face"])
        face = corners(centre, (tw * 0.9, th * 0.9, 0.0))
    return corners((cx, cy, d / 2), (tw, th, d)), face


def standing_tile(name, tile, cx, frame, mats, folder):
    """A concealed tile standing, its face toward the camera's side (-y): ivory front, coloured back."""
    w, h, d = frame["size"]
    front, rear = d * 0.6, d * 0.4
    block(f"{name}f", (w, front, h), (cx, -front / 2, h / 2), mats["body"], 0.0015)
    block(f"{name}b", (w, rear, h), (cx, rear / 2, h / 2), mats["back"], 0.0015)
    centre = (cx, -front - 0.0002, h / 2)
    face_plane(f"{name}p", centre, (w * 0.9, h * 0.9), (math.pi / 2, 0, 0), str(folder / tile["face"]), frame["face"])
    return corners((cx, 0.0 - (front - rear) / 2, h / 2), (w, d, h)), corners(centre, (w * 0.9, 0.0, h * 0.9))


def hand_row(frame, mats, folder):
    """The hand along x from 0: standing or lying, its called melds lying apart at the right
    with the called tile turned. Returns each tile's (label, pose, whole, face) and the span."""
    w, h, d = frame["size"]
    boxes, x = [], 0.0
    for i, tile in enumerate(frame["tiles"]):
        stand = frame["standing"] and not tile["meld"]
        across = h if tile["pose"] == "sideways" else w
        if tile["meld"] and (i == 0 or not frame["tiles"][i - 1]["meld"]):
            x += 0.02
        cx = x + across / 2
        if stand:
            whole, face = standing_tile(f"t{i}", tile, cx, frame, mats, folder)
        else:   # a sideways tile keeps its long edge on the row's front line
            cy = (-0.05 if frame["standing"] else 0.0) - (h - w) / 2 * (tile["pose"] == "sideways")
            whole, face = lying(f"t{i}", tile, cx, cy, frame, mats, folder)
        boxes.append((tile["label"], tile["pose"], whole, face))
        x += across + frame["gap"]
    return boxes, x


def table_tiles(frame, mats, folder, span):
    """Discards in rows of six and a wall row beyond the hand (away from the camera)."""
    w, h, d = frame["size"]
    boxes = []
    for i, tile in enumerate(frame.get("table", [])):
        cx = span / 2 + (tile["col"] - 2.5) * (w + 0.001)
        cy = 0.06 + h * 1.5 + tile["row"] * (h + 0.002)
        whole, face = lying(f"x{i}", tile, cx, cy, frame, mats, folder)
        boxes.append((tile["label"], tile["pose"], whole, face))
    return boxes


def surroundings(frame, folder, centre, span):
    """A wall with a room's picture (shelves of CJK-titled books) behind the table, cups and
    boxes beside the tiles: things that are not tiles, in the frame."""
    if frame.get("wall"):
        bpy.ops.mesh.primitive_plane_add(size=1.0, location=(centre.x, 0.4, 0.25), rotation=(math.pi / 2, 0, 0))
        wall = bpy.context.object
        wall.scale = (1.2, 0.6, 1.0)
        wall.data.materials.append(material("wall", (0.8, 0.8, 0.8), 0.8, str(folder / frame["wall"]), glow=0.6))
    for k, prop in enumerate(frame.get("props", [])):
        sx, sy, sz = prop["size"]
        x = centre.x + prop["side"] * (span / 2 + prop["reach"] + sx / 2)
        mat = material(f"prop{k}", prop["colour"], 0.4)
        if prop["kind"] == "cup":
            bpy.ops.mesh.primitive_cylinder_add(radius=sx / 2, depth=sz, location=(x, prop["depth"], sz / 2))
            bpy.context.object.data.materials.append(mat)
        else:
            block(f"prop{k}", (sx, sy, sz / 3), (x, prop["depth"], sz / 6), mat, 0.002)


def dice(frame, folder, centre, span):
    """Dice lying beyond an end of the hand: ivory rounded cubes, the top a picture of its pips
    (`render.dice`); no tiles, so no boxes."""
    if not frame.get("dice"):
        return
    ivory = material("die", (0.93, 0.91, 0.86), 0.3)
    for k, die in enumerate(frame["dice"]):
        s = die["side"]
        x = centre.x + die["end"] * (span / 2 + die["reach"] + s / 2)
        cube = block(f"die{k}", (s, s, s), (x, die["depth"], s / 2), ivory, s * 0.12)
        cube.rotation_euler = Euler((0, 0, math.radians(die["turn"])))
        face_plane(f"die{k}p", (x, die["depth"], s + 0.0002), (s * 0.9, s * 0.9), (0, 0, math.radians(die["turn"])),
                   str(folder / die["top"]), (0.93, 0.91, 0.86))


def build(frame, folder):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    h = frame["size"][1]
    cloth = material("cloth", frame["cloth"], 0.9)
    bpy.ops.mesh.primitive_plane_add(size=4.0, location=(0, 0, 0))
    bpy.context.object.data.materials.append(cloth)
    mats = {"body": material("body", frame["face"], 0.3), "back": material("back", frame["back"], 0.35)}
    standing = frame["standing"]
    boxes, span = hand_row(frame, mats, folder)
    boxes += table_tiles(frame, mats, folder, span)
    centre = Vector((span / 2, -0.02 if standing else 0.0, h / 2 if standing else 0.0))
    surroundings(frame, folder, centre, span)
    dice(frame, folder, centre, span)
    target = camera(scene, frame, centre, span)
    lights(scene, frame, centre, target)
    return boxes


def camera(scene, frame, centre, span):
    """A phone (4:3) or a webcam (16:9), aimed at the row's centre: from the seat just above the
    tiles' tops for a standing hand, else from above, `tilt` off vertical. Returns its target."""
    width = frame.get("width", 640)
    scene.render.resolution_x = width
    scene.render.resolution_y = int(width * (9 / 16 if frame["wide"] else 3 / 4))
    cam_data = bpy.data.cameras.new("cam")
    cam_data.lens = frame["lens"]
    cam = bpy.data.objects.new("cam", cam_data)
    scene.collection.objects.link(cam)
    fov = 2 * math.atan(18 / frame["lens"])
    distance = (span * 0.65 + 0.04) / math.tan(fov / 2)
    tilt = math.radians(frame["tilt"])
    if frame["standing"]:
        offset = Vector((0, -math.cos(tilt), math.sin(tilt))) * distance
    else:
        offset = Vector((0, -math.sin(tilt), math.cos(tilt))) * distance
    offset.rotate(Euler((0, 0, math.radians(frame["yaw"]))))
    cam.location = centre + offset
    target = bpy.data.objects.new("target", None)
    target.location = centre
    scene.collection.objects.link(target)
    track = cam.constraints.new("TRACK_TO")
    track.target, track.track_axis, track.up_axis = target, "TRACK_NEGATIVE_Z", "UP_Y"
    scene.camera = cam
    return target


def lights(scene, frame, centre, target):
    """An area light aimed at the tiles, now and then the sun through a window (hard shadows),
    and a dim world."""
    light_data = bpy.data.lights.new("area", "AREA")
    light_data.size, light_data.energy = 1.0, frame["power"]
    light = bpy.data.objects.new("area", light_data)
    light.location = centre + Vector(frame["light"])
    scene.collection.objects.link(light)
    light_track = light.constraints.new("TRACK_TO")
    light_track.target, light_track.track_axis, light_track.up_axis = target, "TRACK_NEGATIVE_Z", "UP_Y"
    if frame.get("sun"):
        azimuth, elevation, strength = frame["sun"]
        sun_data = bpy.data.lights.new("sun", "SUN")
        sun_data.energy, sun_data.angle = strength, math.radians(1.0)
        sun = bpy.data.objects.new("sun", sun_data)
        sun.rotation_euler = Euler((math.radians(90 - elevation), 0, math.radians(azimuth)))
        scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.3
    scene.world = world


def project(scene, points):
    xs, ys = [], []
    for p in points:
        v = world_to_camera_view(scene, scene.camera, p)
        xs.append(v.x * scene.render.resolution_x)
        ys.append((1 - v.y) * scene.render.resolution_y)
    return [min(xs), min(ys), max(xs), max(ys)]


def main():
    plan = json.loads(Path(sys.argv[sys.argv.index("--") + 1]).read_text())
    folder = Path(plan["folder"])
    out = {}
    for n, frame in enumerate(plan["frames"]):
        if frame.get("skip"):   # `--held-out-only`: the plan draws every frame, so those kept are the same
            continue
        frame["width"] = plan["width"]
        boxes = build(frame, folder)
        scene = bpy.context.scene
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = plan["samples"]
        scene.cycles.use_denoising = False   # Debian's build has no denoiser
        scene.render.threads_mode, scene.render.threads = "FIXED", plan.get("threads", 1)
        scene.view_settings.view_transform = "Standard"   # Filmic washes the printed faces out
        # written with headroom, 16 bits a channel: the camera's metering is done afterwards
        # (`meter.py`), on the light the frame holds, as a camera would
        scene.view_settings.exposure = -plan["headroom"]
        scene.render.image_settings.file_format = "PNG"
        scene.render.image_settings.color_depth = "16"
        scene.render.filepath = str(folder / f"frame-{n}.png")
        bpy.context.view_layer.update()
        out[f"frame-{n}.jpg"] = [{"label": label, "pose": pose, "whole": project(scene, whole),
                                  "face": project(scene, face) if face else None} for label, pose, whole, face in boxes]
        bpy.ops.render.render(write_still=True)
    (folder / "boxes.json").write_text(json.dumps(out))   # labels.json once the frames are metered


main()
