import sys

from pytest_logicenv.cli import main

sys.exit(main())
