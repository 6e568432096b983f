from pincite.cli import main

main()
