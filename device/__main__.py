import sys

from device.cli import main

sys.exit(main())
