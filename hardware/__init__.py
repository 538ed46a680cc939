"""Ordvakt hardware edge: buttons, buzzer, LEDs, cameras. Back-ends are chosen at construction.

Modules: :mod:`hardware.config` (the validated ``[hardware]`` table), :mod:`hardware.events`
(``ButtonRole``, ``ButtonEvent``), :mod:`hardware.buttons` (gpiozero ``Buttons`` and ``MockButtons``),
:mod:`hardware.buzzer` (``Pattern``, ``Buzzer``, console and silent twins), :mod:`hardware.leds`
(``TurnLeds``), :mod:`hardware.camera` (``Camera`` protocol, ``open_camera``). Importing any of
them loads no GPIO library, camera stack or OpenCV.
"""
