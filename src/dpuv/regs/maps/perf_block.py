"""Register map of perf_block, generated from rtl/common/regs/perf_block.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x50455246),
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
        'SOURCE_ID', 0x000c, 32,
        (
            Field('id', 0, 32, 'r', None),
        ),
        'Which stream of the design these counters watch (design specific).',
    ),
    Register(
        'CTRL', 0x0010, 32,
        (
            Field('enable', 0, 1, 'rw', 0x1),
            Field('clear', 1, 1, 'w', 0x0),
            Field('snapshot', 2, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'CYCLES', 0x0018, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles counted while enabled.',
    ),
    Register(
        'BEATS', 0x0020, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Beats transferred (tvalid and tready).',
    ),
    Register(
        'BYTES', 0x0028, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Bytes transferred (tkeep bits of every beat).',
    ),
    Register(
        'PACKETS', 0x0030, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Beats transferred with tlast.',
    ),
    Register(
        'STALL_CYCLES', 0x0038, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles with tvalid high and tready low: the sink held the stream back.',
    ),
    Register(
        'IDLE_CYCLES', 0x0040, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles with tvalid low: the source had nothing to offer.',
    ),
    Register(
        'ACTIVE_CYCLES', 0x0048, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Cycles from the first beat to the last beat, inclusive; BEATS / ACTIVE_CYCLES is utilisation.',
    ),
    Register(
        'EVENTS', 0x0050, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Design-specific events (for example dropped frames).',
    ),
    Register(
        'LATENCY_MIN', 0x0058, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Smallest latency in cycles; all ones while LATENCY_COUNT is 0.',
    ),
    Register(
        'LATENCY_MAX', 0x005c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Largest latency in cycles.',
    ),
    Register(
        'LATENCY_SUM', 0x0060, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Sum of every latency in cycles.',
    ),
    Register(
        'LATENCY_COUNT', 0x0068, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'Latencies measured.',
    ),
    Register(
        'LATENCY_ERRORS', 0x0070, 64,
        (
            Field('value', 0, 64, 'r', None),
        ),
        'A stop with no start waiting, or a start with the queue full.',
    ),
)

BLOCK = Block('perf_block', 0x50455246, 0x00010000, 0x78, REGISTERS)
