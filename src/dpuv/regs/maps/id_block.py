"""Register map of id_block, generated from rtl/common/regs/id_block.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x44504944),
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
        'MAGIC', 0x000c, 32,
        (
            Field('value', 0, 32, 'r', 0x44505556),
        ),
        'Reads 0x44505556 ("DPUV") on every dpuv bitstream.',
    ),
    Register(
        'DESIGN_VERSION', 0x0010, 32,
        (
            Field('patch', 0, 8, 'r', 0x0),
            Field('minor', 8, 8, 'r', 0x1),
            Field('major', 16, 16, 'r', 0x0),
        ),
        'Version of the dpuv design as a whole.',
    ),
    Register(
        'GIT_HASH', 0x0014, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'First 32 bits of the commit the bitstream was built from.',
    ),
    Register(
        'BUILD_OPTIONS', 0x0018, 32,
        (
            Field('simulation', 0, 1, 'r', None),
            Field('git_dirty', 1, 1, 'r', None),
            Field('stream_bytes', 8, 8, 'r', None),
        ),
        'How this bitstream was configured.',
    ),
    Register(
        'CLOCK_FREQ_KHZ', 0x001c, 32,
        (
            Field('khz', 0, 32, 'r', None),
        ),
        'Nominal frequency of clk in kHz, for turning cycle counts into time.',
    ),
    Register(
        'SCRATCH', 0x0020, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        'Read-write register with no effect, for bus self-tests.',
    ),
)

BLOCK = Block('id_block', 0x44504944, 0x00010000, 0x24, REGISTERS)
