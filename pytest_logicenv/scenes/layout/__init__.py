"""Z3 layout: turn a :class:`~pytest_logicenv.scenes.scene_model.SceneSpec` into a placed
:class:`~pytest_logicenv.scenes.scene_model.Scene`.

The designer decides *what* is in the house (rooms, doors, windows, objects with their supports,
spatial relations with priorities); this package decides *where*: every object's position and
rotation, every door's and window's wall and offset, and the agent's start.

**Modules**, in the order a layout uses them:

- :mod:`~.driver`: :func:`solve_layout`, the attempts with other seeds, one layout's steps.
- :mod:`~.parts`: parts (a dresser's drawers) and what rests in them leave the problem and
  come back at their parents.
- :mod:`~.validation`, :mod:`~.contradictions` and :mod:`~.fit_checks`: what is wrong with a
  design before solving, and what the rooms' areas cannot hold.
- :mod:`~.task_needs`: the relations the task needs, never relaxed: what the rooms' sizes rule
  out, and the errors for those that cannot hold.
- :mod:`~.selection`: which objects may be left out, and in what order.
- :mod:`~.floor_plan`: rooms in solver cells, their sides, the walls derived from them.
- :mod:`~.items` and :mod:`~.poses`: what is placed, where (solver terms), and its boxes.
- :mod:`~.smt`: the grid units and the SMT-LIB terms everything is written in.
- :mod:`~.openings`: doors and windows in walls, and the clearances they keep free.
- :mod:`~.decomposition` and :mod:`~.groups`: the small problems in order (a crowded floor in
  anchor groups), and which relations each solves.
- :mod:`~.solving`, :mod:`~.constraints`, :mod:`~.relations`, :mod:`~.placements`,
  :mod:`~.tolerances`, :mod:`~.relaxation`: one problem (its variables, hard constraints,
  relation encodings with their thresholds, what is kept and dropped), on the :mod:`~.state`
  of the run within its :mod:`~.budget` of time.
- :mod:`~.reachability` and :mod:`~.clearing`: door paths, the agent's start that reaches the
  task objects, and what to leave out when furniture closes the way.

**Grid.** Positions are integers: on a :data:`~.smt.GRID` (5 cm) grid for what stands on the
floor or hangs on a wall, on a :data:`~.smt.FINE_GRID` (1 cm) grid for what rests on or in
another object (small things on small tops), and heights in centimetres. An object occupies
whole cells that contain its real bounding box (sizes are rounded up), so what the solver
proves about cells (no collision, inside the room) holds for the real boxes. Supports and
relations are encoded exactly on the real coordinates.

**Decomposition.** Instead of one model for the whole house, the layout is a sequence of small
problems, each solved by its own Z3 :class:`z3.Solver`, in dependency order: the doors and windows
of the house; the floor of each room; the top and the interior of each receptacle (its size
bounds what goes on or in it, so it is placed first); the walls of each room (wall-mounted
objects, around the doors, windows and whatever already stands against the wall); then what
rests on wall-mounted objects. Objects placed by an earlier problem are constants in later ones.
A relation between objects of two problems is solved in the later one, except that the objects
it links are solved together in the earlier one (with what they rest on) when it relates a
wall-mounted object to floor furniture (a picture above the sofa, a switch near the desk: the
furniture must stand where that is possible), or when solving it in the later problem dropped it
(then the layout is solved again). A crowded floor (more than 16 items, or more than
:data:`~.groups.GROUP_SIZE` covering over half its free floor) is placed in *anchor groups* of
about eight, the most important first, each grown from its anchor through the relations that
link it (a sofa with its coffee table, TV stand and armchair): Z3's effort grows much faster
than the objects of one problem, so one room of 160 objects takes about a second this way. A
relation between two groups of one floor is solved with the later group and dropped if it
cannot hold there (solving the two groups together again, as above, was measured to take 13 s
for 160 objects, to keep about one relation in six of those dropped).
``decompose=False`` solves one model of everything instead.

**Best effort.** When a room cannot hold everything, the layout places a maximal subset in
priority order and records the rest (see :mod:`~.selection`): task objects, what they rest on
and the agent's start are *essential*, and one that cannot be placed is an error naming it and
the space it needs; the others go by their priority, the later among equals, and with them
what rests on them and the relations naming them. Before solving, objects whose footprints no
longer fit the area their room has left (its floor less the doors' sweeps, the agent's start
and a walkway to each task object) are left out at once; when a problem's objects still do
not fit, it is solved again with a presence literal ``p<n>`` per object that may be left out,
relaxed like the relations below (objects before relations). Left-out objects, with the
reason, go to the scene's ``provenance.dropped_objects``. When the time runs out, the layout
keeps the best it found so far (what it placed, and of a problem under way the objects it
fitted one at a time, most important first) and leaves out the rest: the problems after the
deadline place only what the task needs (see :mod:`~.budget` for the margin past the
deadline, and :mod:`~.relaxation`).

**Hard constraints.** Inside the room; no collision (3D boxes; an object and what it holds are
exempt); supported (floor objects stand at ``y = 0``, an object ``on`` another stands on its top
surface within its footprint, one ``in`` another sits on its bottom within its footprint (and
below its top if it is openable, so that it closes), a wall-mounted object has its back flush
against a wall of its room, below the wall's top); door
clearance (an area in front of each door, on both sides, as deep as
:func:`~pytest_logicenv.scenes.scene_model.door_clearance`:
the sweep of its leaf, holds nothing lower than
the door); windows in exterior walls above the floor, and
nothing against a wall in front of a window opening; rotations 0, 90, 180 or 270.

**Relations** (thresholds in :mod:`pytest_logicenv.scenes.scene_model`; the *footprint* is an
object's
rotated bounding box on the floor plane; *front* is where it faces, see that module).
Binary relations other than ``far`` require both objects to be in the same room.

- ``edge(s)``: for an object on the floor, some side of its room's polygon is at most
  ``EDGE_DISTANCE`` from the footprint, the footprint's extent along that side lies within the
  side, and ``s`` faces into the room (its back to that wall). For an object on or in another,
  some side of its footprint is at most ``EDGE_DISTANCE`` from the same side of its parent's
  footprint.
- ``corner(s)``: for an object on the floor, ``edge(s)`` holds with one of two sides of its
  room that meet at a convex corner (the room fills one quadrant around it), and the
  footprint is also at most ``EDGE_DISTANCE`` from the other, within its extent (a plant or a
  floor lamp in the corner, its back to one wall). For an object on or in another, two
  perpendicular sides of its footprint are each at most ``EDGE_DISTANCE`` from the same side
  of its parent's footprint.
- ``middle(s)``: for an object on the floor, its footprint grown by ``MIDDLE_DISTANCE`` on
  every side lies in its room (it stands away from the walls, with a walkway round it); for
  an object on or in another, as ``center(s)``.
- ``center(s)``: the footprint's centre is within ``CENTER_FRACTION`` of the support's extent
  (along each axis) from the support's centre: the room's bounding box for an object on the
  floor, the parent's footprint otherwise.
- ``mounted_on_wall(s)``: ``s`` is supported by a wall (``relation == "wall"``).
- ``in(s, t)``: ``s`` rests in ``t`` (``parent == t``, ``relation == "in"``).
- ``on_top_of(s, t)``: ``s`` rests on ``t`` (``parent == t``, ``relation == "on"``).
- ``near(s, t)``: the distance between the footprints is at most ``NEAR_DISTANCE``.
- ``far(s, t)``: different rooms, or the distance between the footprints is at least
  ``FAR_DISTANCE``.
- ``above(s, t)``: ``s``'s bottom is at or above ``t``'s top, and ``s``'s footprint centre lies
  within ``t``'s footprint grown by ``ABOVE_MARGIN`` on every side.
- ``in_front_of(s, t)``: ``s``'s footprint lies wholly on the side ``t`` faces, beyond ``t``'s
  front, at most ``ADJACENT_DISTANCE`` from it, and ``s``'s centre lies within ``t``'s extent
  across that direction.
- ``side_of(s, t)``: ``s``'s footprint lies wholly to the left or right of ``t``'s (across
  ``t``'s facing direction), at most ``ADJACENT_DISTANCE`` from it, and ``s``'s centre lies
  within ``t``'s extent along the facing direction.
- ``center_aligned(s, t)``: ``s``'s centre is at most ``ALIGN_TOLERANCE`` from the line through
  ``t``'s centre along ``t``'s facing direction.
- ``face_to(s, t)``: ``t``'s footprint lies wholly beyond ``s``'s front, and ``s``'s centre lies
  within ``t``'s extent across ``s``'s facing direction (``s`` looks straight at ``t``).

**Reach.** The agent must be able to walk (a square of ``2 * WALK_HALF``, between the walls,
through the doors between rooms, around everything standing on the floor or hanging on a
wall) from its start to within ``REACH_DISTANCE`` of every task object (of what it rests on)
and every window with a role. The solver places the agent's start somewhere free; the layout
then moves it to the stretch of floor that reaches the most of them, and when some stays out
of reach, lays the scene out again with another seed (up to :data:`~.driver.ATTEMPTS` times,
while time is left); when none reaches all, it leaves out of the best one the enrichment
objects that close the way (see :mod:`~.clearing`).

**Relaxation.** ``in``, ``on_top_of`` and ``mounted_on_wall`` restate supports and are checked
before solving (a contradiction is an error). The others are soft: each gets an assumption
literal passed to :meth:`z3.Solver.check`. When the problem is unsatisfiable, the lowest-priority
relation of the unsat core is dropped (enrichment before task-critical; the later one among
equals) and the problem is solved again; afterwards every dropped relation is tried again, most
important first, and may displace kept relations of lower priority that block it. So every
dropped relation conflicts with kept relations of equal or higher priority (the reason names
them: the unsat core, not necessarily minimal), and every relation that could join the kept ones
has. Kept and dropped relations (with the reason) go to the scene's provenance. Two relations
that no layout meets together (near and far of one pair, see :mod:`~.contradictions`) are an
error when both are task-critical; otherwise the less important is dropped before solving. A
task-critical relation between essential objects is one the task needs: never relaxed, like a
task object (see :mod:`~.task_needs`): one the room's size rules out, or that cannot hold even
with the other objects left out, is an error naming it.

**Margins.** A relation met at its very tolerance (a coffee table 1.00 m from the sofa it is
near, centred 5 cm off its axis) is valid but looks wrong. After relaxing, each problem prefers
the relations it kept met with the natural margins of
:data:`~pytest_logicenv.scenes.scene_model.NEAR_NATURAL` and its neighbours (near within 0.5 m,
centre-aligned to half a grid cell, a coffee table 0.3-0.6 m in front and centred, ...): a
literal ``m<i>`` per relation, as many as hold together, in at most
:data:`~.solving.MARGIN_ROUNDS` checks of bounded effort (:data:`~.solving.MARGIN_EFFORT` Z3
resource units, a count, so that the scene does not depend on the machine's speed). These are
preferences: the checker tests the definitions above.

>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec, SpatialRelation
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("living", "LivingRoom", ((0, 0), (4, 0), (4, 3), (0, 3))),),
...     objects=(
...         SceneObject("sofa", "Sofa", room="living", size=(1.6, 0.8, 0.9),
...                     properties=("receptacle",)),
...         SceneObject("tv", "Television", room="living", size=(0.8, 0.5, 0.1)),
...         SceneObject("book", "Book", parent="sofa", size=(0.3, 0.05, 0.2)),
...     ),
...     relations=(SpatialRelation("edge", "sofa"), SpatialRelation("face_to", "sofa", "tv")),
... )
>>> scene = solve_layout(spec, seed=1)
>>> [r.kind for r in scene.provenance.kept]
['edge', 'face_to']
>>> round(scene.object("book").position[1], 3)  # on the sofa's 0.8 m top
0.825
>>> solve_layout(spec, seed=1) == scene
True
"""

from pytest_logicenv.scenes.layout.driver import ATTEMPTS, DEFAULT_TIMEOUT_MS, solve_layout

__all__ = ["ATTEMPTS", "DEFAULT_TIMEOUT_MS", "solve_layout"]
