from simulate.cli import main

main()
