"""The serial link to an automatic table's point display, and a simulated table.

Data flows one way: bytes -> `decoder` (frames, counted errors) -> `tracker` (link health from
`link`, settled states and payments from `settle`) -> `events` -> the reader's callback.
`frames` holds the MJ1 format both sides share; `reader` owns the port and the clock; `match`
compares a payment with a scored hand. The simulated table: `game` (a plausible game as the
drawers see it), `faults`, `simulator` (the bridge), `ports` (where it writes).
"""
