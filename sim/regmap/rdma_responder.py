"""Register map of rdma_responder, generated from rtl/rdma/regs/rdma_responder.rdl; do not edit."""

from dpuv.sim.regmodel import Block, Field, Register

REGISTERS = (
    Register(
        'BLOCK_TYPE', 0x0000, 32,
        (
            Field('id', 0, 32, 'r', 0x52444d41),
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
            Field('qp_count', 0, 16, 'r', None),
            Field('mr_count', 16, 8, 'r', None),
            Field('data_bytes', 24, 8, 'r', None),
        ),
        '',
    ),
    Register(
        'PMTU', 0x0010, 32,
        (
            Field('bytes', 0, 13, 'rw', 0x400),
        ),
        '',
    ),
    Register(
        'LOCAL_MAC_LOW', 0x0014, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'LOCAL_MAC_HIGH', 0x0018, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'LOCAL_IP', 0x001c, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'STATUS', 0x0020, 32,
        (
            Field('qp_ready', 0, 1, 'r', None),
        ),
        '',
    ),
    Register(
        'QP_INDEX', 0x0040, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_REMOTE_QPN', 0x0044, 32,
        (
            Field('value', 0, 24, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_REMOTE_MAC_LOW', 0x0048, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_REMOTE_MAC_HIGH', 0x004c, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_REMOTE_IP', 0x0050, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_UDP_SOURCE_PORT', 0x0054, 32,
        (
            Field('value', 0, 16, 'rw', 0xc000),
        ),
        '',
    ),
    Register(
        'QP_EXPECTED_PSN', 0x0058, 32,
        (
            Field('value', 0, 24, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_CTRL', 0x005c, 32,
        (
            Field('valid', 0, 1, 'rw', 0x1),
            Field('commit', 1, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'MR_INDEX', 0x0080, 32,
        (
            Field('value', 0, 8, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'MR_RKEY', 0x0084, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'MR_BASE_LOW', 0x0088, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'MR_BASE_HIGH', 0x008c, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'MR_LENGTH', 0x0090, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'MR_CTRL', 0x0094, 32,
        (
            Field('valid', 0, 1, 'rw', 0x1),
            Field('remote_write', 1, 1, 'rw', 0x1),
            Field('remote_read', 2, 1, 'rw', 0x1),
            Field('commit', 3, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'RX_FRAMES', 0x0100, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames in from the MAC, good or not.',
    ),
    Register(
        'RX_BYTES', 0x0104, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Bytes in from the MAC.',
    ),
    Register(
        'RX_FRAMES_GOOD', 0x0108, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames the parser passed on to the responder.',
    ),
    Register(
        'TX_FRAMES', 0x010c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames sent (ACKs, NAKs, READ responses).',
    ),
    Register(
        'TX_BYTES', 0x0110, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Bytes of the frames sent.',
    ),
    Register(
        'ACKS_SENT', 0x0114, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'ACKs sent (cumulative; coalesced where AckReq allows).',
    ),
    Register(
        'NAKS_SENT', 0x0118, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NAKs sent, every kind.',
    ),
    Register(
        'DUPLICATES', 0x011c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Requests with a PSN already executed (re-ACKed, or a READ executed again).',
    ),
    Register(
        'SEQUENCE_DROPS', 0x0120, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Requests ahead of the expected PSN (the first of a gap is NAKed).',
    ),
    Register(
        'UNKNOWN_QP_DROPS', 0x0124, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Requests for a QP that does not exist or is in the error state.',
    ),
    Register(
        'ACCESS_ERRORS', 0x0128, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Requests refused for their R_Key, range or access rights (NAK remote access error).',
    ),
    Register(
        'INVALID_REQUESTS', 0x012c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Requests refused as invalid (NAK invalid request), and responses sent to the responder.',
    ),
    Register(
        'DROPS_ICRC', 0x0130, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames dropped for a bad ICRC.',
    ),
    Register(
        'DROPS_MALFORMED', 0x0134, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames the parser dropped as malformed: truncated, not RoCE, bad lengths, version, opcode, pad, PMTU, MAC error.',
    ),
    Register(
        'DROPS_OVERFLOW', 0x0138, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames dropped because the receive buffer was full.',
    ),
    Register(
        'ACK_LATENCY_MIN', 0x013c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Fewest cycles from a request's last beat in to its ACK's first beat out; all ones until one is measured.",
    ),
    Register(
        'ACK_LATENCY_MAX', 0x0140, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Most cycles from a request's last beat in to its ACK's first beat out.",
    ),
    Register(
        'ACK_LATENCY_SUM', 0x0144, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Sum of those cycles over every ACK measured.',
    ),
    Register(
        'ACK_LATENCY_COUNT', 0x0148, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'ACKs measured.',
    ),
)

BLOCK = Block('rdma_responder', 0x52444d41, 0x00010000, 0x14c, REGISTERS)
