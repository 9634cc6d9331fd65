import ProlificCLI

Prolific.main()
