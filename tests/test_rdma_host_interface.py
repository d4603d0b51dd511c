"""The RDMA engine's host interface written once: the driver takes its counters from the register
map, never from a copy of their order."""

from dpuv.drivers import rdma


def test_the_driver_reads_every_counter_the_register_map_has_in_address_order():
    window = [register for register in rdma.BLOCK.registers if register.offset >= rdma.COUNTER_WINDOW]
    assert rdma.COUNTERS == tuple(register.name for register in window)
    assert [register.offset for register in window] == sorted(register.offset for register in window)
    for register in window:
        (field,) = register.fields
        assert (field.name, field.lsb, field.width, field.software_access) == ("value", 0, 32, "r"), register.name
