"""Sub-commands of the ``ordvakt`` CLI, one module each (see :mod:`device.cli`)."""
