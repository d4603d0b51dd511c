"""Register map of allreduce_rank, generated from rtl/allreduce/regs/allreduce_rank.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x41524544),
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
            Field('buffer_beats_log2', 16, 8, 'r', None),
        ),
        '',
    ),
    Register(
        'CTRL', 0x0010, 32,
        (
            Field('start', 0, 1, 'w', 0x0),
            Field('clear_counters', 1, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'CONFIG', 0x0014, 32,
        (
            Field('dtype', 0, 3, 'rw', 0x0),
            Field('op', 4, 2, 'rw', 0x0),
            Field('flush_subnormals', 8, 1, 'rw', 0x0),
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
        'STATUS', 0x0020, 32,
        (
            Field('busy', 0, 1, 'r', None),
            Field('done', 1, 1, 'r', None),
            Field('config_error', 4, 1, 'r', None),
            Field('ring_error', 5, 1, 'r', None),
            Field('length_error', 6, 1, 'r', None),
            Field('data_error', 7, 1, 'r', None),
        ),
        '',
    ),
    Register(
        'ERRORS', 0x0024, 32,
        (
            Field('count', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'COLLECTIVE_CYCLES', 0x0028, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles from start to done of the last collective.',
    ),
    Register(
        'REDUCE_SCATTER_BYTES', 0x0030, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Bytes this rank sent during reduce-scatter.',
    ),
    Register(
        'ALL_GATHER_BYTES', 0x0038, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Bytes this rank sent during all-gather.',
    ),
    Register(
        'REDUCER_BEATS', 0x0040, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Beats out of the reducer.',
    ),
    Register(
        'REDUCER_STARVED_CYCLES', 0x0048, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles inside a frame when the reducer could take a beat but an operand was missing (input starvation).',
    ),
    Register(
        'SEND_BACKPRESSURE_CYCLES', 0x0050, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles the ring output offered a beat the next rank did not take (output backpressure; the reducer itself writes into the buffer and is never held back).',
    ),
    Register(
        'NAN_ELEMENTS', 0x0058, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Result elements that came out NaN.',
    ),
    Register(
        'OVERFLOW_ELEMENTS', 0x0060, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Result elements whose finite operands overflowed.',
    ),
)

BLOCK = Block('allreduce_rank', 0x41524544, 0x00010000, 0x68, REGISTERS)
