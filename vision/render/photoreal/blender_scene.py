"""Runs inside Blender (`blender -b -P blender_scene.py -- plan.json`): builds each planned frame
(rounded tile blocks, a face layer with its picture, a coloured back layer; a cloth; an area
light; a phone or webcam camera), renders it with Cycles on the CPU and writes the tiles' boxes
projected from their corners (`labels.json`: per frame, each tile's label, whole box and face
box in pixels). Only Blender's own Python runs this file; the plan comes from `__main__.py`.
"""
import json
import math
import sys
from pathlib import Path

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Euler, Vector


def material(name, colour, roughness=0.35, image=None):
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


def build(frame, folder):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    w, h, d = frame["size"]
    face_mat_colour, back_colour = frame["face"], frame["back"]
    cloth = material("cloth", frame["cloth"], 0.9)
    bpy.ops.mesh.primitive_plane_add(size=4.0, location=(0, 0, 0))
    bpy.context.object.data.materials.append(cloth)
    body = material("body", face_mat_colour, 0.3)
    back = material("back", back_colour, 0.35)
    standing = frame["standing"]
    boxes = []
    x = 0.0
    for i, tile in enumerate(frame["tiles"]):
        meld = tile["meld"]
        stand = standing and not meld
        down = tile["face"] is None
        cx = x + w / 2
        if meld:
            cx += 0.02
        if stand:   # face toward -y (the camera), thickness along y: ivory front, coloured back
            front, rear = d * 0.6, d * 0.4
            block(f"t{i}f", (w, front, h), (cx, -front / 2, h / 2), body, 0.0015)
            block(f"t{i}b", (w, rear, h), (cx, rear / 2, h / 2), back, 0.0015)
            whole = corners((cx, 0.0 - (front - rear) / 2, h / 2), (w, d, h))
            face_centre, face_size = (cx, -front - 0.0002, h / 2), (w * 0.9, 0.0, h * 0.9)
            rot = (math.pi / 2, 0, 0)
        else:       # lying: face up, or face down with the back up
            top, bottom = (back, body) if down else (body, back)
            up, low = (d * 0.4, d * 0.6) if down else (d * 0.6, d * 0.4)
            oy = -0.05 if standing else 0.0
            block(f"t{i}f", (w, h, up), (cx, oy, low + up / 2), top, 0.0015)
            block(f"t{i}b", (w, h, low), (cx, oy, low / 2), bottom, 0.0015)
            whole = corners((cx, oy, d / 2), (w, h, d))
            face_centre, face_size = (cx, oy, d + 0.0002), (w * 0.9, h * 0.9, 0.0)
            rot = (0, 0, 0)
        face = None
        if not down:
            bpy.ops.mesh.primitive_plane_add(size=1.0, location=face_centre, rotation=rot)
            plane = bpy.context.object
            plane.scale = (w * 0.9, h * 0.9, 1.0)
            plane.data.materials.append(material(f"f{i}", face_mat_colour, 0.25, str(folder / tile["face"])))
            face = corners(face_centre, face_size)
        boxes.append((tile["label"], whole, face))
        x += w + frame["gap"]
    span = x
    centre = Vector((span / 2, -0.02 if standing else 0.0, h / 2 if standing else 0.0))
    # the camera: a phone (4:3) or a webcam (16:9), aimed at the row's centre
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
    yaw = math.radians(frame["yaw"])
    if standing:   # from the seat: just above the tiles' tops
        offset = Vector((0, -math.cos(tilt), math.sin(tilt))) * distance
    else:          # from above, `tilt` off vertical
        offset = Vector((0, -math.sin(tilt), math.cos(tilt))) * distance
    offset.rotate(Euler((0, 0, yaw)))
    cam.location = centre + offset
    target = bpy.data.objects.new("target", None)
    target.location = centre
    scene.collection.objects.link(target)
    track = cam.constraints.new("TRACK_TO")
    track.target, track.track_axis, track.up_axis = target, "TRACK_NEGATIVE_Z", "UP_Y"
    scene.camera = cam
    light_data = bpy.data.lights.new("area", "AREA")
    light_data.size, light_data.energy = 1.0, frame["power"]
    light = bpy.data.objects.new("area", light_data)
    light.location = centre + Vector(frame["light"])
    scene.collection.objects.link(light)
    light_track = light.constraints.new("TRACK_TO")
    light_track.target, light_track.track_axis, light_track.up_axis = target, "TRACK_NEGATIVE_Z", "UP_Y"
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.3
    scene.world = world
    return boxes


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
        frame["width"] = plan["width"]
        boxes = build(frame, folder)
        scene = bpy.context.scene
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = plan["samples"]
        scene.cycles.use_denoising = False   # Debian's build has no denoiser
        scene.render.threads_mode, scene.render.threads = "FIXED", plan.get("threads", 1)
        scene.view_settings.view_transform = "Standard"   # Filmic washes the printed faces out
        scene.view_settings.exposure = frame["exposure"]
        scene.render.image_settings.file_format = "JPEG"
        scene.render.image_settings.quality = 92
        scene.render.filepath = str(folder / f"frame-{n}.jpg")
        bpy.context.view_layer.update()
        out[f"frame-{n}.jpg"] = [{"label": label, "whole": project(scene, whole),
                                  "face": project(scene, face) if face else None} for label, whole, face in boxes]
        bpy.ops.render.render(write_still=True)
    (folder / "labels.json").write_text(json.dumps(out))


main()
