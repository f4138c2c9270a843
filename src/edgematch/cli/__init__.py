"""The ``edgematch`` command line: one module per subcommand, parsing and printing only."""
