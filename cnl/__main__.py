import sys

from cnl.cli import main

sys.exit(main())
