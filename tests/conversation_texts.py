"""Two short policies where follow-ups only find the right one in context (issue 15 tests)."""

RETENTION = (
    "Customer invoices are retained for seven years after the end of the fiscal year. "
    "Invoices are stored in the encrypted archive managed by the finance team. "
    "The finance director approves the deletion of invoices."
)
TRAVEL = (
    "Boarding passes are stored in the travel portal for one year. "
    "The travel desk approves the deletion of hotel bookings. "
    "Economy class is required for every flight shorter than six hours."
)
TURNS = (
    "How long are customer invoices retained?",
    "Where are they stored?",
    "And who approves their deletion?",
)
