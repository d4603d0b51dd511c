"""Break one line of a block on purpose: its testbench must fail on both simulators.

Each mutation runs on a copy of rtl/ in a scratch folder, so the real sources are never
touched and the mutant builds in its own folder.
"""

import hashlib
import shutil
from pathlib import Path

import pytest

from dpuv.sim import benches, runner, toolchain

RTL = benches.PROJECT_ROOT / "rtl"

MUTATIONS = [
    pytest.param("axis_skid_buffer", "common/axis_skid_buffer.v", "skid_valid <= 1'b1;", "",
                 "frames_arrive_intact", id="skid-buffer-loses-the-beat-it-should-catch"),
    pytest.param("crc32", "common/crc32.v", "32'hEDB88320", "32'hEDB88321",
                 "known_answer", id="crc-polynomial-off-by-one-bit"),
    pytest.param("axis_arb_mux", "common/rr_arbiter.v", "last_granted <= grant_index;", "",
                 "saturated_inputs_take_round_robin_turns", id="arbiter-forgets-who-went-last"),
    pytest.param("allreduce_reducer", "allreduce/fp_add.v",
                 "round_up = normalised[2] && (normalised[1] || normalised[0] || normalised[3]);",
                 "round_up = normalised[2];",
                 "matches_model/dtype=bf16/op=sum", id="adder-rounds-ties-away-from-even"),
    pytest.param("traffic_block", "common/traffic_checker.v", "&& s_axis_tkeep == {DATA_WIDTH/8{1'b1}}", "",
                 "checker_counts_each_fault_once", id="traffic-checker-ignores-tkeep"),
    pytest.param("board_top", "bringup/uart_rx.v", "if (line) begin", "if (1'b0) begin",
                 "a_glitch_shorter_than_half_a_bit_is_not_a_start_bit", id="uart-takes-a-glitch-for-a-start-bit"),
    pytest.param("board_top", "bringup/uart_tx.v", "pending <= {1'b1, s_axis_tdata};", "pending <= {1'b0, s_axis_tdata};",
                 "a_host_clock_off_by_3_percent_still_talks", id="uart-sends-a-low-stop-bit"),
    pytest.param("roce_tx_builder", "rdma/roce_icrc_append.v", "|| frame_offset == 16'd46", "",
                 "payload_lengths_around_every_beat_and_pad_boundary", id="icrc-leaves-bth-byte-4-unmasked"),
    pytest.param("axi_dma_write", "common/axi_burst_splitter.v", "if (next_burst_beats > beats_to_page_end) begin",
                 "if (1'b0) begin", "pages_and_burst_limits_split_a_long_write", id="dma-burst-crosses-4k"),
    pytest.param("axi_dma_read", "common/axi_dma_read.v",
                 "wire                 skip_beat = first_realigned_beat && data_offset != {OFFSET_WIDTH{1'b0}};",
                 "wire                 skip_beat = 1'b0;",
                 "frames_hold_exactly_the_bytes_at_any_address/read_pauses=None/backpressure=None",
                 id="dma-read-keeps-the-bytes-before-the-address"),
    pytest.param("axi_read_arbiter", "common/axi_read_arbiter.v",
                 "response_port = m_axi_rid[M_ID_WIDTH-1:S_ID_WIDTH];",
                 "response_port = m_axi_rid[PORT_INDEX_WIDTH-1:0];",
                 "every_port_reads_the_memorys_bytes/master_pauses=None/slave_pauses=None",
                 id="read-arbiter-routes-data-by-the-masters-id-bits"),
    pytest.param("axi_write_arbiter", "common/axi_write_arbiter.v", "if (w_beat_taken && m_axi_wlast) begin",
                 "if (w_beat_taken) begin", "every_port_writes_its_bytes_exactly/master_pauses=None/slave_pauses=None",
                 id="write-arbiter-unlocks-before-wlast"),
    pytest.param("rdma_engine", "rdma/roce_responder.v", "                if (!nak_sent) begin",
                 "                if (1'b1) begin", "every_request_completes_once_through_a_lossy_wire/loss=0.1",
                 id="responder-nakks-every-packet-after-a-gap"),
    pytest.param("rdma_engine", "rdma/roce_responder.v", "wire        access_ok = request_length == 32'd0",
                 "wire        access_ok = 1'b1 || request_length == 32'd0", "a_bad_key_is_nakked_and_the_qp_stops",
                 id="responder-ignores-the-rkey"),
    pytest.param("rdma_engine", "rdma/roce_requester.v",
                 "m_write_cmd_addr <= head_local_address + {32'd0, read_received};",
                 "m_write_cmd_addr <= head_local_address;", "requests_complete_in_order_on_a_clean_wire",
                 id="requester-writes-every-read-response-at-the-buffer-start"),
    pytest.param("rdma_engine", "rdma/roce_requester.v",
                 ": response_syndrome == SYNDROME_REMOTE_ACCESS_ERROR ? WC_REM_ACCESS_ERR : WC_REM_OP_ERR;",
                 ": response_syndrome == SYNDROME_REMOTE_ACCESS_ERROR ? WC_SUCCESS : WC_REM_OP_ERR;",
                 "a_remote_access_error_fails_the_request_and_flushes_the_rest",
                 id="requester-reports-a-remote-access-error-as-success"),
    pytest.param("rdma_engine", "rdma/roce_responder.v", "m_cqe_immediate_valid <= has_immediate;",
                 "m_cqe_immediate_valid <= 1'b0;", "sends_land_in_posted_receives",
                 id="responder-drops-the-immediate-of-a-receive"),
    pytest.param("rdma_engine", "rdma/roce_requester.v", "deadline <= now + rnr_wait_cycles;", "deadline <= now;",
                 "an_rnr_nak_is_waited_out_then_the_send_goes_through", id="requester-does-not-wait-out-an-rnr-nak"),
    pytest.param("nvme_controller", "storage/nvme_registers.v", "                if (cc_supported_latched) begin",
                 "                if (1'b1) begin", "unsupported_settings_give_a_fatal_status_until_disabled",
                 id="nvme-enables-with-unsupported-settings"),
    pytest.param("nvme_controller", "pcie/pcie_us_cq_axil.v", "m_axis_cc_tdata[71:64] <= request_tag;",
                 "m_axis_cc_tdata[71:64] <= request_tag + 8'd1;", "registers_read_as_the_specification_defines",
                 id="completer-answers-with-the-wrong-tag"),
    pytest.param("nvme_controller", "storage/nvme_queue_engine.v", "wire        cq_full = cq_tail_next == cq_head;",
                 "wire        cq_full = 1'b0;", "a_full_completion_queue_holds_completions_until_the_head_moves",
                 id="nvme-posts-into-a-full-completion-queue"),
    pytest.param("nvme_controller", "storage/nvme_queue_engine.v", "                phase <= !phase;",
                 "                phase <= phase;", "admin_commands_complete_as_the_model_predicts",
                 id="nvme-keeps-the-phase-on-a-wrap"),
    pytest.param("nvme_controller", "pcie/pcie_msix.v", "    if (!sending && msix_enable && !msix_function_mask && sendable",
                 "    if (!sending && msix_enable && !msix_function_mask && pending",
                 "completions_raise_msix_vector_0_and_masked_ones_wait_in_the_pba",
                 id="msix-sends-a-masked-vector"),
    pytest.param("nvme_controller", "pcie/pcie_us_requester.v",
                 "wire [10:0] bulk_first_limit = mps_dwords < page_left_dwords ? mps_dwords : page_left_dwords;",
                 "wire [10:0] bulk_first_limit = page_left_dwords;", "identify_writes_its_structures_where_the_prps_point",
                 id="requester-ignores-the-max-payload-size"),
    pytest.param("nvme_controller", "storage/nvme_queue_engine.v", "                        end else if (cq_has_sq) begin",
                 "                        end else if (1'b0) begin", "io_queues_are_created_and_deleted_with_every_check",
                 id="nvme-deletes-a-cq-that-an-sq-still-uses"),
    pytest.param("nvme_controller", "storage/nvme_io_command.v",
                 "wire        lba_in_range = !last_lba[64] && last_lba[63:0] < NAMESPACE_BLOCKS;",
                 "wire        lba_in_range = last_lba[63:0] < NAMESPACE_BLOCKS;",
                 "nvm_commands_move_every_byte_as_the_model_predicts", id="nvme-misses-the-64-bit-lba-wrap"),
    pytest.param("nvme_controller", "storage/nvme_io_command.v",
                 "        ns_address <= ns_address + {51'd0, chunk_bytes};", "",
                 "nvm_commands_move_every_byte_as_the_model_predicts", id="nvme-writes-every-piece-at-the-first-block"),
    pytest.param("nvme_controller", "storage/nvme_counters.v", "        8'h13: status_kind = E_PRP_OFFSET;",
                 "        8'h13: status_kind = E_LBA_RANGE;", "nvm_commands_move_every_byte_as_the_model_predicts",
                 id="nvme-counts-prp-offset-errors-as-lba-range"),
    pytest.param("nvme_controller", "pcie/pcie_us_read_pieces.v", "assign piece_offset = completion_offset[11:0];",
                 "assign piece_offset = 12'd0;", "nvm_commands_move_every_byte_as_the_model_predicts",
                 id="requester-puts-every-completion-of-a-write-at-its-start"),
    pytest.param("nvme_controller", "pcie/pcie_us_requester.v",
                 "                if (m_axis_rq_tlast) begin\n                    start_next();\n                end\n"
                 "            end\n        end\n        S_BULK",
                 "                if (m_axis_rq_tlast) begin\n                    start_next();\n"
                 "                    first_beat <= 1'b0;\n                end\n            end\n        end\n        S_BULK",
                 "nvm_commands_move_every_byte_as_the_model_predicts",
                 id="requester-sends-back-to-back-writes-without-the-second-descriptor"),
    pytest.param("nvme_controller", "storage/nvme_queue_engine.v", "        entry <= batch[512 * batch_next +: 512];",
                 "        entry <= batch[511:0];", "random_mixed_traffic_over_every_queue_pair",
                 id="nvme-batch-runs-its-first-entry-again"),
    pytest.param("nvme_controller", "pcie/pcie_us_read_pieces.v",
                 "wire [TAG_INDEX_WIDTH-1:0] tag_index = completion_tag[TAG_INDEX_WIDTH-1:0];",
                 "wire [TAG_INDEX_WIDTH-1:0] tag_index = 1;", "nvm_commands_move_every_byte_as_the_model_predicts",
                 id="read-pieces-place-every-tag-as-tag-1"),
    pytest.param("nvme_controller", "storage/nvme_registers.v", "                if (engine_busy) begin",
                 "                if (1'b0) begin", "disabling_in_the_middle_of_traffic_resets_cleanly",
                 id="nvme-disable-cuts-the-command-in-hand"),
    pytest.param("nvme_controller", "storage/nvme_io_command.v",
                 "wire        must_wait = drain_busy && (opcode != OP_WRITE || overlaps_drain);",
                 "wire        must_wait = drain_busy && opcode != OP_WRITE && opcode != OP_READ;",
                 "commands_behind_a_draining_write_see_its_data", id="nvme-read-overtakes-a-draining-write"),
    pytest.param("nvme_controller", "storage/nvme_io_command.v",
                 "drain_status <= read_failed_slots[drain_slot] ? SC_DATA_TRANSFER_ERROR",
                 "drain_status <= 1'b0 ? SC_DATA_TRANSFER_ERROR", "nvm_commands_move_every_byte_as_the_model_predicts",
                 id="nvme-released-write-hides-its-transfer-error"),
    pytest.param("nvme_controller", "storage/nvme_write_slots.v",
                 "assign write_answered_slot = write_order[read_index];", "assign write_answered_slot = 1'b0;",
                 "commands_behind_a_draining_write_see_its_data", id="nvme-namespace-writes-counted-in-the-wrong-slot"),
    pytest.param("nvme_controller", "storage/nvme_queue_engine.v",
                 "        io_sq_head[prefetch_queue] <= io_sq_head[prefetch_queue] == io_sq_size[prefetch_queue] ? 16'd0\n"
                 "                                    : io_sq_head[prefetch_queue] + 16'd1;",
                 "        io_sq_head[prefetch_queue] <= io_sq_head[prefetch_queue];",
                 "random_mixed_traffic_over_every_queue_pair", id="nvme-prefetched-batch-leaves-the-sq-head"),
    pytest.param("nvme_controller", "pcie/pcie_us_requester.v",
                 "wire   read_blocked = small_read_outstanding || (state == S_SEND && tlp_is_read);",
                 "wire   read_blocked = state == S_SEND && tlp_is_read;", "random_mixed_traffic_over_every_queue_pair",
                 id="requester-takes-a-small-read-while-one-is-outstanding"),
    pytest.param("nvme_controller", "pcie/pcie_us_requester.v",
                 "!small_read_beat && small_read_age == SMALL_TIMEOUT", "!small_read_beat && 1'b0",
                 "lost_and_unexpected_completions_end_cleanly", id="requester-waits-forever-for-a-lost-completion"),
    pytest.param("nvme_controller", "pcie/pcie_us_read_pieces.v", "    if (expired_found && !read_ends_now) begin",
                 "    if (1'b0) begin", "lost_and_unexpected_completions_end_cleanly",
                 id="read-pieces-wait-forever-for-a-lost-completion"),
    pytest.param("nvme_controller", "pcie/pcie_us_read_pieces.v", "&& tag_index_valid && tag_busy[tag_index]",
                 "&& tag_index_valid", "lost_and_unexpected_completions_end_cleanly",
                 id="read-pieces-take-a-completion-for-a-free-tag"),
    pytest.param("nvme_controller", "pcie/pcie_us_read_pieces.v",
                 "                            && completion_tag[4] == tag_generation[tag_index];", ";",
                 "lost_and_unexpected_completions_end_cleanly",
                 id="read-pieces-take-a-late-completion-for-the-tags-next-read"),
    pytest.param("nvme_controller", "pcie/pcie_us_requester.v",
                 "wire small_tag_matches = s_axis_rc_tdata[71:64] == {3'd0, small_read_generation, 4'd0};",
                 "wire small_tag_matches = s_axis_rc_tdata[67:64] == 4'd0;", "lost_and_unexpected_completions_end_cleanly",
                 id="requester-takes-a-late-or-unexpected-small-completion"),
    pytest.param("nvme_controller", "storage/nvme_interrupt_coalescing.v",
                 "wire pass = request_valid && (request_admin || time_limit == 8'd0);",
                 "wire pass = request_valid && time_limit == 8'd0;", "interrupt_coalescing_holds_io_interrupts_as_set",
                 id="nvme-coalescing-holds-admin-interrupts"),
    pytest.param("nvme_controller", "storage/nvme_interrupt_coalescing.v", "|| units[due_index] >= time_limit", "",
                 "interrupt_coalescing_holds_io_interrupts_as_set", id="nvme-coalescing-never-gives-up-waiting"),
    pytest.param("nvme_controller", "storage/nvme_interrupt_coalescing.v", "held[due_index] > threshold",
                 "held[due_index] != 8'd0",
                 "interrupt_coalescing_holds_io_interrupts_as_set", id="nvme-coalescing-ignores-the-threshold"),
    pytest.param("roce_rx_parser", "rdma/roce_icrc_check.v", "assign residue_ok = crc == GOOD_RESIDUE;",
                 "assign residue_ok = 1'b1;", "malformed_frames_are_dropped_with_their_cause/idle=None",
                 id="parser-forwards-bad-icrc-frames"),
]


@pytest.mark.cocotb
@pytest.mark.parametrize("simulator", toolchain.SIMULATORS)
@pytest.mark.parametrize("bench_name,file_name,original,replacement,testcase", MUTATIONS)
def test_mutant_is_caught(bench_name, file_name, original, replacement, testcase, simulator, tmp_path,
                          require_simulator):
    require_simulator(simulator)
    mutant_rtl = tmp_path / "rtl"
    shutil.copytree(RTL, mutant_rtl)
    target = mutant_rtl / file_name
    text = target.read_text()
    assert text.count(original) == 1, f"the mutation site {original!r} must occur once in {file_name}"
    target.write_text(text.replace(original, replacement))

    bench = benches.find(bench_name)
    # Testbench-only lists (the wrappers in tb/) are not mutated and stay where they are
    file_lists = tuple(str(mutant_rtl / Path(file_list).relative_to("rtl")) if Path(file_list).parts[0] == "rtl"
                       else file_list for file_list in bench.file_lists)
    # A build folder of its own: two mutants of one file and test may run at once on two workers
    site = hashlib.sha1(f"{file_name}\0{original}\0{replacement}".encode()).hexdigest()[:8]
    mutant = bench.built_from(file_lists, f"mutant-{Path(file_name).stem}-{testcase.split('/')[0]}-{site}")
    result = runner.run(mutant, bench.parameter_sets[0], simulator, seed=1, testcase=testcase, record=False)
    assert result.outcomes, f"the mutant did not run: {result.failure_report()}"
    assert not result.passed, f"{testcase} passed against a broken {file_name} on {simulator}"
