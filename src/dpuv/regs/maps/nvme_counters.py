"""Register map of nvme_counters, generated from rtl/storage/regs/nvme_counters.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x4e564d43),
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
        'CTRL', 0x000c, 32,
        (
            Field('clear', 0, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'CYCLES', 0x0010, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Cycles since the last clear.',
    ),
    Register(
        'ACTIVE_CYCLES', 0x0014, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Cycles from the first submission-entry fetch request after the clear to the last completion entry handed to the PCIe requester, both included (0 before a completion).',
    ),
    Register(
        'COMMANDS_ADMIN', 0x0018, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Admin commands fetched and executed.',
    ),
    Register(
        'COMMANDS_READ', 0x001c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NVM Read commands (02h) fetched.',
    ),
    Register(
        'COMMANDS_WRITE', 0x0020, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NVM Write commands (01h) fetched.',
    ),
    Register(
        'COMMANDS_FLUSH', 0x0024, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NVM Flush commands (00h) fetched.',
    ),
    Register(
        'COMMANDS_WRITE_ZEROES', 0x0028, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NVM Write Zeroes commands (08h) fetched.',
    ),
    Register(
        'COMMANDS_OTHER', 0x002c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'I/O commands with any other opcode (completed with Invalid Opcode), and entries that could not be read.',
    ),
    Register(
        'COMPLETIONS', 0x0030, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completion entries handed to the PCIe requester, every queue.',
    ),
    Register(
        'ERRORS', 0x0034, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with a status other than Successful Completion.',
    ),
    Register(
        'ERRORS_INVALID_OPCODE', 0x0038, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 01h Invalid Command Opcode.',
    ),
    Register(
        'ERRORS_INVALID_FIELD', 0x003c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 02h Invalid Field in Command.',
    ),
    Register(
        'ERRORS_DATA_TRANSFER', 0x0040, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 04h Data Transfer Error.',
    ),
    Register(
        'ERRORS_INTERNAL', 0x0044, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 06h Internal Error (the namespace backend answered an error).',
    ),
    Register(
        'ERRORS_INVALID_NAMESPACE', 0x0048, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 0Bh Invalid Namespace or Format.',
    ),
    Register(
        'ERRORS_PRP_OFFSET', 0x004c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 13h PRP Offset Invalid.',
    ),
    Register(
        'ERRORS_LBA_RANGE', 0x0050, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with generic status 80h LBA Out of Range.',
    ),
    Register(
        'ERRORS_COMMAND_SPECIFIC', 0x0054, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with a command-specific status (SCT 1), every code.',
    ),
    Register(
        'ERRORS_OTHER', 0x0058, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completions with any other error status.',
    ),
    Register(
        'READ_BYTES', 0x005c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Bytes NVM Reads moved from the namespace to host memory, counted piece by piece as each is handed to the PCIe requester.',
    ),
    Register(
        'WRITE_BYTES', 0x0060, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Bytes NVM Writes moved from host memory to the namespace, counted piece by piece as each is handed to the namespace.',
    ),
    Register(
        'FETCH_LATENCY_MIN', 0x0080, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Fewest cycles from an SQ tail doorbell write (the first since the SQ's previous fetch) to the fetch request of an entry of that SQ; all ones until one is measured.",
    ),
    Register(
        'FETCH_LATENCY_MAX', 0x0084, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'FETCH_LATENCY_SUM', 0x0088, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'FETCH_LATENCY_COUNT', 0x008c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'POST_LATENCY_MIN', 0x0090, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Fewest cycles from the end of an NVM command's last piece of data (for a Read, the cycle after its last memory write beat left for the host; for Write and Write Zeroes, the namespace's write response) to its completion entry handed to the PCIe requester, a cycle before the entry's first beat; all ones until one is measured.",
    ),
    Register(
        'POST_LATENCY_MAX', 0x0094, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'POST_LATENCY_SUM', 0x0098, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'POST_LATENCY_COUNT', 0x009c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'INTERRUPT_LATENCY_MIN', 0x00a0, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Fewest cycles from a completion entry's last beat to the IP to the MSI-X message it raises (a masked vector's wait included); all ones until one is measured.",
    ),
    Register(
        'INTERRUPT_LATENCY_MAX', 0x00a4, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'INTERRUPT_LATENCY_SUM', 0x00a8, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'INTERRUPT_LATENCY_COUNT', 0x00ac, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'COMMAND_LATENCY_MIN', 0x00b0, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Fewest cycles from a command's start (its entry taken up for execution) to its completion entry posted (built and queued for the PCIe requester); all ones until one is measured.",
    ),
    Register(
        'COMMAND_LATENCY_MAX', 0x00b4, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'COMMAND_LATENCY_SUM', 0x00b8, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
    Register(
        'COMMAND_LATENCY_COUNT', 0x00bc, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        '',
    ),
)

BLOCK = Block('nvme_counters', 0x4e564d43, 0x00010000, 0xc0, REGISTERS)
