"""Register map of traffic_block, generated from rtl/common/regs/traffic_block.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x54524146),
        ),
        'Identifies what kind of block this is (four ASCII characters).',
    ),
    Register(
        'BLOCK_VERSION', 0x0004, 32,
        (
            Field('version', 0, 32, 'r', 0x10000),
        ),
        'Register-map version of this block: major in [31:16], minor in [15:0].',
    ),
    Register(
        'BLOCK_NEXT', 0x0008, 32,
        (
            Field('address', 0, 32, 'r', None),
        ),
        'Byte address of the next block in the chain; 0 ends the chain.',
    ),
    Register(
        'CAPS', 0x000c, 32,
        (
            Field('data_bytes', 0, 8, 'r', None),
        ),
        '',
    ),
    Register(
        'CTRL', 0x0010, 32,
        (
            Field('start', 0, 1, 'w', 0x0),
            Field('stop', 1, 1, 'w', 0x0),
            Field('inject_error', 2, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'FRAMES', 0x0014, 32,
        (
            Field('count', 0, 32, 'rw', 0x10),
        ),
        '',
    ),
    Register(
        'FRAME_BEATS', 0x0018, 32,
        (
            Field('beats', 0, 16, 'rw', 0x10),
        ),
        '',
    ),
    Register(
        'SEED', 0x001c, 32,
        (
            Field('value', 0, 32, 'rw', 0x1),
        ),
        '',
    ),
    Register(
        'GAP', 0x0020, 32,
        (
            Field('cycles', 0, 8, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'STATUS', 0x0024, 32,
        (
            Field('sending', 0, 1, 'r', None),
            Field('done', 1, 1, 'r', None),
        ),
        '',
    ),
    Register(
        'FRAMES_SENT', 0x0028, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames the generator sent since the last start.',
    ),
    Register(
        'FRAMES_RECEIVED', 0x002c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames (tlast beats) the checker saw since the last start.',
    ),
    Register(
        'FRAMES_BAD', 0x0030, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Received frames with at least one wrong beat (data, tkeep or length).',
    ),
    Register(
        'SEQUENCE_ERRORS', 0x0034, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Received frames whose number was not the one expected: frames lost, repeated or reordered on the path.',
    ),
    Register(
        'BEATS_RECEIVED', 0x0038, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Beats the checker saw since the last start.',
    ),
    Register(
        'BAD_BEATS', 0x003c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Received beats that differ from the pattern.',
    ),
    Register(
        'CYCLES', 0x0040, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Cycles from the first generated beat to the FRAMES-th checked frame's last beat, inclusive; BEATS_RECEIVED / CYCLES is the path's utilisation.",
    ),
)

BLOCK = Block('traffic_block', 0x54524146, 0x00010000, 0x44, REGISTERS)
