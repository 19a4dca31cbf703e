from rummykit.cli.main import main

raise SystemExit(main())
