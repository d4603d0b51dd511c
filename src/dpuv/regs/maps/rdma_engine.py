"""Register map of rdma_engine, generated from rtl/rdma/regs/rdma_engine.rdl; do not edit."""

from dpuv.regs.model import Block, Field, Register

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
            Field('version', 0, 32, 'r', 0x20004),
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
            Field('bytes', 0, 13, 'rw', 0x1000),
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
            Field('qp_refused', 1, 1, 'r', None),
        ),
        '',
    ),
    Register(
        'PKEY_0', 0x0024, 32,
        (
            Field('value', 0, 16, 'rw', 0xffff),
        ),
        "P_Key table entry 0, the default partition 0xFFFF after reset: every request and response the engine sends carries it. A received frame is accepted if its P_Key matches any entry (same bits 14:0, not zero, and bit 15 set in the frame's or the entry's); the rest are dropped and counted in DROPS_PKEY.",
    ),
    Register(
        'PKEY_1', 0x0028, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        'P_Key table entry 1; 0 (empty) after reset.',
    ),
    Register(
        'PKEY_2', 0x002c, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        'P_Key table entry 2; 0 (empty) after reset.',
    ),
    Register(
        'PKEY_3', 0x0030, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        'P_Key table entry 3; 0 (empty) after reset.',
    ),
    Register(
        'OFFLOAD_QPS', 0x0034, 32,
        (
            Field('first_qpn', 0, 16, 'rw', 0x0),
            Field('count', 16, 16, 'rw', 0x0),
        ),
        "QPs first_qpn to first_qpn + count - 1 belong to the node's own engines (the collective engine): their completions, send and receive, leave on the engine's completion port instead of the completion queue, which never sees them. Their doorbells may come from the register bus or the engine's doorbell ports alike.",
    ),
    Register(
        'CONGESTION', 0x0038, 32,
        (
            Field('ect', 0, 1, 'rw', 0x0),
            Field('notify', 1, 1, 'rw', 0x0),
            Field('cnp_dscp', 8, 6, 'rw', 0x30),
        ),
        "RoCEv2 congestion control's receiving side (docs/rdma.md, Congestion notification). A switch marks an ECN-capable frame CE instead of dropping it when its queue builds; the node that receives a marked frame answers with a CNP to the QP that sent it.",
    ),
    Register(
        'CNP_INTERVAL', 0x003c, 32,
        (
            Field('cycles', 0, 32, 'rw', 0x30d4),
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
        'QP_SEND_PSN', 0x0060, 32,
        (
            Field('value', 0, 24, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_SQ_BASE_LOW', 0x0064, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_SQ_BASE_HIGH', 0x0068, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_TRANSPORT', 0x006c, 32,
        (
            Field('sq_log_size', 0, 4, 'rw', 0x4),
            Field('pmtu_code', 4, 3, 'rw', 0x2),
            Field('timeout', 8, 5, 'rw', 0xe),
            Field('retry_count', 16, 3, 'rw', 0x7),
            Field('rq_log_size', 20, 4, 'rw', 0x4),
            Field('rnr_retry', 24, 3, 'rw', 0x7),
        ),
        '',
    ),
    Register(
        'QP_RQ_BASE_LOW', 0x0070, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'QP_RQ_BASE_HIGH', 0x0074, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
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
            Field('remote_atomic', 4, 1, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'SQ_DOORBELL', 0x00a0, 32,
        (
            Field('producer_index', 0, 16, 'w', 0x0),
            Field('qpn', 16, 16, 'w', 0x0),
        ),
        'Write after placing WQEs: the send queue of QP qpn now ends before entry producer_index (free running, modulo 2^16). A doorbell for a missing QP, or one claiming more WQEs than the ring holds, is counted in DOORBELLS_REJECTED and ignored.',
    ),
    Register(
        'RQ_DOORBELL', 0x00a4, 32,
        (
            Field('producer_index', 0, 16, 'w', 0x0),
            Field('qpn', 16, 16, 'w', 0x0),
        ),
        'Write after placing receive WQEs: the receive queue of QP qpn now ends before entry producer_index (free running, modulo 2^16).',
    ),
    Register(
        'CQ_BASE_LOW', 0x00b0, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'CQ_BASE_HIGH', 0x00b4, 32,
        (
            Field('value', 0, 32, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'CQ_CONFIG', 0x00b8, 32,
        (
            Field('log_size', 0, 4, 'rw', 0x8),
            Field('restart', 31, 1, 'w', 0x0),
        ),
        '',
    ),
    Register(
        'CQ_CONSUMER', 0x00bc, 32,
        (
            Field('value', 0, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'CQ_PRODUCER', 0x00c0, 32,
        (
            Field('value', 0, 16, 'r', None),
        ),
        '',
    ),
    Register(
        'DCQCN_CTRL', 0x00c4, 32,
        (
            Field('enable', 0, 1, 'rw', 0x0),
            Field('first_qpn', 16, 16, 'rw', 0x0),
        ),
        'QPs first_qpn to first_qpn + CAPS2.rate_limited_qps - 1 each have a DCQCN reaction point (docs/rdma.md, Rate control): a CNP for one cuts its rate, its timers and bytes raise it again, and its request packets are paced to it. Set the DCQCN_* parameters first, then enable; each reaction point starts again at the line rate when disabled or when its QP is committed.',
    ),
    Register(
        'DCQCN_LINE_RATE', 0x00c8, 32,
        (
            Field('mbps', 0, 20, 'rw', 0x186a0),
        ),
        '',
    ),
    Register(
        'DCQCN_MIN_RATE', 0x00cc, 32,
        (
            Field('mbps', 0, 20, 'rw', 0x1),
        ),
        '',
    ),
    Register(
        'DCQCN_ALPHA', 0x00d0, 32,
        (
            Field('initial_value', 0, 11, 'rw', 0x400),
            Field('gain', 16, 11, 'rw', 0x4),
        ),
        '',
    ),
    Register(
        'DCQCN_ALPHA_PERIOD', 0x00d4, 32,
        (
            Field('ns', 0, 32, 'rw', 0xd6d8),
        ),
        '',
    ),
    Register(
        'DCQCN_INCREASE_PERIOD', 0x00d8, 32,
        (
            Field('ns', 0, 32, 'rw', 0xd6d8),
        ),
        '',
    ),
    Register(
        'DCQCN_BYTE_COUNTER', 0x00dc, 32,
        (
            Field('bytes', 0, 32, 'rw', 0xa00000),
        ),
        '',
    ),
    Register(
        'DCQCN_FAST_RECOVERY', 0x00e0, 32,
        (
            Field('stages', 0, 8, 'rw', 0x5),
        ),
        '',
    ),
    Register(
        'DCQCN_AI_RATE', 0x00e4, 32,
        (
            Field('mbps', 0, 20, 'rw', 0x5),
        ),
        '',
    ),
    Register(
        'DCQCN_HAI_RATE', 0x00e8, 32,
        (
            Field('mbps', 0, 20, 'rw', 0x32),
        ),
        '',
    ),
    Register(
        'DCQCN_OBSERVE', 0x00ec, 32,
        (
            Field('qpn', 0, 16, 'rw', 0x0),
        ),
        '',
    ),
    Register(
        'DCQCN_RATE', 0x00f0, 32,
        (
            Field('mbps', 0, 20, 'r', None),
        ),
        '',
    ),
    Register(
        'DCQCN_TARGET_RATE', 0x00f4, 32,
        (
            Field('mbps', 0, 20, 'r', None),
        ),
        '',
    ),
    Register(
        'DCQCN_STATE', 0x00f8, 32,
        (
            Field('alpha', 0, 11, 'r', None),
            Field('stage', 16, 2, 'r', None),
        ),
        '',
    ),
    Register(
        'CAPS2', 0x00fc, 32,
        (
            Field('rate_limited_qps', 0, 16, 'r', None),
            Field('atomic_results', 16, 8, 'r', None),
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
        "Frames that passed the parser's checks; those then dropped for their address or P_Key are counted again in DROPS_WRONG_ADDRESS and DROPS_PKEY.",
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
    Register(
        'REQUESTS_SENT', 0x014c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Request packets the requester sent, first sendings and retransmissions.',
    ),
    Register(
        'RETRANSMITS', 0x0150, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Request packets sent again after going back N.',
    ),
    Register(
        'TIMEOUTS', 0x0154, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Local ACK timeouts.',
    ),
    Register(
        'RETRIES', 0x0158, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Times a QP went back N (timeout, sequence NAK or missing READ responses).',
    ),
    Register(
        'ACKS_RECEIVED', 0x015c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'ACKs the requester took.',
    ),
    Register(
        'NAKS_RECEIVED', 0x0160, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'NAKs the requester took, every kind.',
    ),
    Register(
        'RESPONSES_DROPPED', 0x0164, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Responses dropped: stale PSN, unknown QP, QP in error, or a READ response that does not fit.',
    ),
    Register(
        'COMPLETIONS', 0x0168, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completion entries written.',
    ),
    Register(
        'COMPLETION_ERRORS', 0x016c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Completion entries written with a status other than success.',
    ),
    Register(
        'DOORBELLS_REJECTED', 0x0170, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Doorbells ignored: missing QP, or a producer index past the ring or moving back.',
    ),
    Register(
        'DOORBELL_LATENCY_MIN', 0x0174, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Fewest cycles from a doorbell on an idle requester to the first beat of a request out; all ones until one is measured.',
    ),
    Register(
        'DOORBELL_LATENCY_MAX', 0x0178, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Most cycles from such a doorbell to the first beat of a request out.',
    ),
    Register(
        'DOORBELL_LATENCY_SUM', 0x017c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Sum of those cycles.',
    ),
    Register(
        'DOORBELL_LATENCY_COUNT', 0x0180, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Doorbells measured.',
    ),
    Register(
        'TX_BEATS', 0x0184, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Beats sent to the MAC.',
    ),
    Register(
        'TX_SPAN_CYCLES', 0x0188, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Cycles from the first beat sent to the MAC after reset to the latest, both included: TX_BEATS / TX_SPAN_CYCLES is the beat utilisation of a burst.',
    ),
    Register(
        'RNR_NAKS_SENT', 0x018c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'RNR NAKs sent: a SEND or WRITE with immediate found no posted receive.',
    ),
    Register(
        'RNR_NAKS_RECEIVED', 0x0190, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'RNR NAKs the requester took (each waits its timer, then sends again).',
    ),
    Register(
        'DROPS_WRONG_ADDRESS', 0x0194, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Frames dropped, never answered, because their IPv4 destination is not LOCAL_IP (checked after the ICRC and the parser's checks).",
    ),
    Register(
        'DROPS_PKEY', 0x0198, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Frames for LOCAL_IP dropped, never answered, because their P_Key matches no PKEY_* entry.',
    ),
    Register(
        'CE_MARKED_RECEIVED', 0x019c, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Accepted frames, other than CNPs, that arrived marked CE (IPv4 TOS bits 1:0 = 11), whether or not they sent a CNP.',
    ),
    Register(
        'CNPS_SENT', 0x01a0, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'CNPs queued for the MAC by the notification point.',
    ),
    Register(
        'CNPS_RECEIVED', 0x01a4, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "CNPs accepted (for LOCAL_IP and a partition of the engine's); they change no QP's transport state.",
    ),
    Register(
        'RATE_PACED_CYCLES', 0x01a8, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        "Cycles a request packet waited for its QP's DCQCN rate.",
    ),
    Register(
        'ATOMICS_EXECUTED', 0x01ac, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'COMPARE_SWAP and FETCH_ADD requests executed by the responder (each once).',
    ),
    Register(
        'ATOMIC_REPLAYS', 0x01b0, 32,
        (
            Field('value', 0, 32, 'r', None),
        ),
        'Retried atomics answered from the kept results, not executed again.',
    ),
)

BLOCK = Block('rdma_engine', 0x52444d41, 0x00020004, 0x1b4, REGISTERS)
