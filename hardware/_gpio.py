# SPDX-License-Identifier: GPL-3.0-or-later
"""Turning gpiozero's construction errors into Ordvakt errors that name the setting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from hardware.errors import ConfigurationError, DeviceUnavailable

T = TypeVar("T")

FACTORY_HELP = (
    "no GPIO library works here; on a Raspberry Pi gpiozero needs lgpio: the 'pi' extra installs it on "
    "Python 3.11, on Python 3.13 `sudo apt install python3-lgpio` with a venv made with --system-site-packages "
    "(python3 device/bootstrap.py setup does both); elsewhere set GPIOZERO_PIN_FACTORY=mock or use the console "
    "buttons/buzzer"
)


def build(setting: str, pin: int, make: Callable[[], T], source: str) -> T:
    """Construct one gpiozero device, translating its errors."""
    from gpiozero.exc import BadPinFactory, GPIOPinInUse, PinError, PinInvalidPin

    where = f"{source}: {setting} = {pin!r}"
    try:
        return make()
    except BadPinFactory as exc:
        raise DeviceUnavailable(f"{where}: {FACTORY_HELP} ({exc})") from None
    except GPIOPinInUse as exc:
        raise ConfigurationError(f"{where}: GPIO{pin} is already in use ({exc})") from None
    except PinInvalidPin as exc:
        raise ConfigurationError(f"{where}: this board has no such pin ({exc})") from None
    except (PinError, RuntimeError, OSError) as exc:
        raise DeviceUnavailable(f"{where}: cannot use GPIO{pin}: {exc}") from None


def close_all(devices: Any) -> None:
    for device in devices:
        device.close()
