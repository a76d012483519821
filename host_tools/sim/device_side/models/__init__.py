"""Controller models: decode what a driver sends on a fake bus into panel pixels."""
