"""The scoreboard application: input events, screens, layouts, the app loop."""
