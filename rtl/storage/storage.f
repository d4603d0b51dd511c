# rtl/storage: the NVMe storage engine. Paths are relative to this file.
storage.vlt
nvme_registers.v
nvme_admin.v
nvme_controller.v
