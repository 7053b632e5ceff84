"""The pad's vocabulary: its inputs and the pure steps each game's pad controller is made of
(the loop that runs them is :mod:`firmware_host.pad_loop`)."""
