"""Register map of collective_engine, generated from rtl/collective/regs/collective_engine.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x434f4c4c),
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
        'CAPABILITIES', 0x000c, 32,
        (
            Field('beat_bytes', 0, 8, 'r', None),
            Field('max_ranks', 8, 8, 'r', None),
            Field('max_slots', 16, 8, 'r', None),
        ),
        '',
    ),
    Register(
        'CTRL', 0x0010, 32,
        (
            Field('attach', 0, 1, 'w', 0x0),
            Field('arm', 1, 1, 'w', 0x0),
            Field('start', 2, 1, 'w', 0x0),
            Field('abort', 3, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'CONFIG', 0x0014, 32,
        (
            Field('dtype', 0, 3, 'rw', 0x0),
            Field('op', 4, 2, 'rw', 0x0),
            Field('flush_subnormals', 8, 1, 'rw', 0x0),
            Field('collective_id', 16, 7, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'RING', 0x0018, 32,
        (
            Field('rank', 0, 8, 'rw', 0x0),
            Field('size', 8, 8, 'rw', 0x2),
        ),
        '',
    ),
    Register(
        'LENGTH', 0x001c, 32,
        (
            Field('elements', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'BUFFER_LOW', 0x0020, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        'Node-memory address of the vector, low 32 bits (beat aligned); the result replaces it.',
    ),
    Register(
        'BUFFER_HIGH', 0x0024, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'SLOT_BASE_LOW', 0x0028, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        "Node-memory address of this rank's receive slots, low 32 bits: SLOTS.count slots of SLOTS.bytes, written by the previous rank.",
    ),
    Register(
        'SLOT_BASE_HIGH', 0x002c, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'REMOTE_SLOT_BASE_LOW', 0x0030, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        "The next rank's receive slots as its RDMA engine sees them (a registered region), low 32 bits.",
    ),
    Register(
        'REMOTE_SLOT_BASE_HIGH', 0x0034, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'REMOTE_SLOT_RKEY', 0x0038, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        "R_Key of the next rank's slot region.",
    ),
    Register(
        'SLOTS', 0x003c, 32,
        (
            Field('count', 0, 8, 'rw', 0x8),
            Field('bytes', 16, 16, 'rw', 0x1000),
        ),
        '',
    ),
    Register(
        'QPS', 0x0040, 32,
        (
            Field('next', 0, 16, 'rw', 0x0),
            Field('prev', 16, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'SQ_NEXT_LOW', 0x0044, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        "Node-memory address of QP next's send queue, low 32 bits (the engine writes its WQEs there).",
    ),
    Register(
        'SQ_NEXT_HIGH', 0x0048, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'SQ_PREV_LOW', 0x004c, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        "Node-memory address of QP prev's send queue, low 32 bits.",
    ),
    Register(
        'SQ_PREV_HIGH', 0x0050, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QUEUE_SIZES', 0x0054, 32,
        (
            Field('sq_next_log', 0, 4, 'rw', 0x4),
            Field('sq_prev_log', 4, 4, 'rw', 0x4),
        ),
        '',
    ),
    Register(
        'RECEIVES', 0x0058, 32,
        (
            Field('data', 0, 8, 'rw', 0x8),
            Field('credit', 8, 8, 'rw', 0x10),
        ),
        '',
    ),
    Register(
        'WATCHDOG', 0x005c, 32,
        (
            Field('cycles', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'STATUS', 0x0060, 32,
        (
            Field('busy', 0, 1, 'r', None),
            Field('done', 1, 1, 'r', None),
            Field('config_error', 4, 1, 'r', None),
            Field('completion_error', 5, 1, 'r', None),
            Field('sequence_error', 6, 1, 'r', None),
            Field('watchdog', 7, 1, 'r', None),
            Field('aborted', 8, 1, 'r', None),
            Field('memory_error', 9, 1, 'r', None),
        ),
        '',
    ),
    Register(
        'ERRORS', 0x0064, 32,
        (
            Field('count', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'SLOT_PEAK', 0x0068, 32,
        (
            Field('pieces', 0, 8, 'r', None),
        ),
        '',
    ),
    Register(
        'COLLECTIVE_CYCLES', 0x0070, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles from start to done of the last collective.',
    ),
    Register(
        'REDUCE_SCATTER_BYTES', 0x0078, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Bytes this rank sent during reduce-scatter.',
    ),
    Register(
        'ALL_GATHER_BYTES', 0x0080, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Bytes this rank sent during all-gather.',
    ),
    Register(
        'PIECES_RECEIVED', 0x0088, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Pieces taken from the slots (reduced or copied).',
    ),
    Register(
        'CREDIT_STALL_CYCLES', 0x0090, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles a piece was ready to send but the next rank had no free slot.',
    ),
    Register(
        'REDUCER_BEATS', 0x0098, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Beats out of the reducer.',
    ),
    Register(
        'CREDITS_SENT', 0x00a0, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Credit WRITEs sent to the previous rank (one may grant several slots).',
    ),
    Register(
        'SLOT_MEMORY_BASE', 0x00a8, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        "Node address of the node's on-chip slot memory (meaningless when SLOT_MEMORY_BYTES is 0). Receive slots placed there (SLOT_BASE, and the slots' memory region) are written by the RDMA engine and read by this engine without touching the node-memory port.",
    ),
    Register(
        'SLOT_MEMORY_BYTES', 0x00b0, 32,
        (
            Field('bytes', 0, 32, 'r', None),
        ),
        '',
    ),
)

BLOCK = Block('collective_engine', 0x434f4c4c, 0x00010000, 0xb4, REGISTERS)
