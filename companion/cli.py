"""The ``companion`` command."""

from __future__ import annotations

import argparse
import json
import sys

from . import games
from .store import StorageError


def _simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate

    game = games.get(args.game)
    options = json.loads(args.options) if args.options else None
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, leave=False)
    try:
        summary = simulate(game, args.players, args.games, args.seed, options, progress=bar.update if bar else None)
    finally:
        if bar:
            bar.close()
    print(summary.report())
    return 0


def _arena(args: argparse.Namespace) -> int:
    from .bots.arena import arena
    from .bots.budget import Budget
    from .config import load_config

    normal = None  # --seconds or --iterations: normal's budget, the other levels in proportion
    if args.seconds is not None:
        normal = Budget.seconds(args.seconds)
    elif args.iterations is not None:
        normal = Budget.iterations(args.iterations)
    result = arena(
        games.get(args.game),
        args.seats.split(","),
        args.games,
        args.seed,
        budget=normal,
        scale=args.scale,
        config=load_config(args.config).bots,
        workers=args.workers,
    )
    print(json.dumps(result.as_json()) if args.json else result.report())
    return 0


def _config_check(args: argparse.Namespace) -> int:
    from .config import load_config

    config = load_config(args.file)  # a ConfigError is a ValueError: main() prints it, exit 2
    display = config.display
    buttons = config.buttons
    print(f"{config.source or 'defaults'}: OK")
    print(f"  hardware: {config.hardware} (pin factory {config.pin_factory})")
    if display.driver == "none":
        print("  display: none")
    else:
        print(f"  display: {display.driver} {display.width}x{display.height} on I2C bus {display.i2c_bus} "
              f"at 0x{display.i2c_address:02X}, rotation {display.rotation}, contrast {display.contrast}")
    pins = ", ".join(f"{name}=GPIO{pin}" for name, pin in buttons.pins.items())
    print(f"  buttons: {buttons.profile} ({pins}; {'pull-up' if buttons.pull_up else 'no pull-up'})")
    print(f"  web: http://{config.host}:{config.port}/  language: {config.language}  log level: {config.log_level}")
    print(f"  data: {config.data_dir}")
    print(f"  games: {', '.join(config.games)}")
    network = config.network
    print(f"  network: hotspot {network.hotspot}, SSID {network.ssid or 'Tabletop-XXXX (from the machine id)'}, "
          f"password {'set' if network.password else 'generated'}, band {network.band}, channel {network.channel}")
    if network.ssid:
        from .network import wifi_qr_caveat

        caveat = wifi_qr_caveat(network.ssid, network.password or "")
        if caveat:
            print(f"  warning: {caveat}")
    return 0


def _network_status(args: argparse.Namespace) -> int:
    from . import network
    from .config import load_config
    from .stations import StationCountError, count_stations

    config = load_config(args.config)
    nmcli = network.Nmcli()
    problem = nmcli.available()
    if problem:
        print(f"network: unknown: {problem}")
        return 1
    wifi = nmcli.wifi()
    if wifi is None:
        print("network: no Wi-Fi device")
        return 1
    if wifi.connected and wifi.connection == network.PROFILE:
        print(f"mode: access point on {wifi.device}")
        print(f"SSID: {network.configured_ssid(config)}")
    elif wifi.connected:
        print(f"mode: client on {wifi.device}")
        print(f"network: {wifi.connection}")
    else:
        print(f"mode: not connected ({wifi.device} is {wifi.state})")
    print(f"address: {nmcli.address(wifi.device) or 'none'}")
    if wifi.connection == network.PROFILE:
        try:
            print(f"clients: {count_stations(wifi.device)}")
        except StationCountError as error:
            print(f"clients: unknown ({error})")
            return 1
    return 0


def _network_plan(args: argparse.Namespace) -> int:
    import shlex

    from . import network
    from .config import load_config

    config = load_config(args.config)
    hotspot = network.Hotspot.from_config(config, password="<password>")  # never the real one
    print(f"# hotspot = {hotspot.mode!r}: the nmcli commands `companion serve` would run (none is run now)")
    for when, commands in network.plan(hotspot, args.device):
        print(f"\n# {when}")
        for command in commands:
            print(shlex.join(["nmcli", *command]))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from .config import load_config
    from .serve import serve

    overrides = {"host": args.host, "port": args.port, "data_dir": args.data, "hardware": args.hardware,
                 "log_level": args.log_level}
    return serve(load_config(args.config, overrides))  # a ConfigError is a ValueError: exit 2


def _doctor(args: argparse.Namespace) -> int:
    from hardware import doctor  # the hardware only when asked for

    return doctor.run_command(args.config, args.hardware, args.no_buttons)


def _export(args: argparse.Namespace) -> int:
    from .config import load_config
    from .files import write_atomically
    from .records.backup import export_plays

    document = export_plays(load_config(args.config, {"data_dir": args.data}).data_dir)
    write_atomically(args.file, json.dumps(document, ensure_ascii=False), mode=0o644)
    print(f"{len(document['plays'])} plays written to {args.file}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from .config import load_config
    from .records.backup import import_file

    added, known = import_file(load_config(args.config, {"data_dir": args.data}).data_dir, args.file)
    print(f"{added} plays imported, {known} already there")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="A tabletop companion for four Japanese indie games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    simulate = commands.add_parser("simulate", help="play random games and report speed and balance")
    simulate.add_argument("game", help="game id: " + ", ".join(games.ids()))
    simulate.add_argument("--players", type=int, required=True, help="number of players")
    simulate.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    simulate.add_argument("--options", help='game options as JSON, e.g. \'{"board": "back"}\'')
    simulate.set_defaults(run=_simulate)

    arena = commands.add_parser("arena", help="play bots against each other and count their wins")
    arena.add_argument("game", help="game id: lion-square, meow-oracle or swap5")
    arena.add_argument("--seats", required=True, help="one entry per seat: easy, normal, strong, greedy, ahead (a greedy player that thinks ahead) or random, e.g. normal,ahead,ahead")
    arena.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game and of the players (default 0)")
    budget = arena.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="normal's seconds per move (other levels scaled as configured)")
    budget.add_argument("--iterations", type=int, help="normal's iterations per move, reproducible (others scaled)")
    budget.add_argument("--scale", type=float, help="each level thinks S times its configured seconds, in processor "
                                                    "time (0.1: a Raspberry Pi Zero 2 W)")
    arena.add_argument("--workers", type=int, default=1, help="processes each level's search runs on, 1 to 3, "
                       "each with the level's whole budget (default 1; the appliance on a Pi: 3)")
    arena.add_argument("--json", action="store_true", help='print one JSON object {"game", "seats", "games", "wins", "lions", "moves"}')
    arena.add_argument("--config", help="the TOML configuration file whose [bots] budgets to use (default: built-in)")
    arena.set_defaults(run=_arena)

    config = commands.add_parser("config", help="work with the configuration file")
    config_commands = config.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = config_commands.add_parser("check", help="check a configuration file and summarise it")
    check.add_argument("file", nargs="?", help="the TOML file (default: $COMPANION_CONFIG, else the built-in defaults)")
    check.set_defaults(run=_config_check)

    serve = commands.add_parser("serve", help="run the table: the web server for phones and the table screen")
    serve.add_argument("--config", help="the TOML configuration file (default: $COMPANION_CONFIG, else built-in defaults)")
    serve.add_argument("--host", help="address to listen on (default from the configuration: 0.0.0.0, every interface)")
    serve.add_argument("--port", type=int, help="port to listen on (default from the configuration: 8000)")
    serve.add_argument("--data", help="directory of the table's database (default: the user's data directory)")
    serve.add_argument("--hardware", choices=("auto", "mock", "real"), help="OLED and buttons: real, mock, or auto (real on a Pi)")
    serve.add_argument("--log-level", choices=("debug", "info", "warning", "error"), help="how much to log to stderr")
    serve.set_defaults(run=_serve)

    network = commands.add_parser("network", help="the companion's own Wi-Fi: its state, and what it would run")
    network_commands = network.add_subparsers(dest="network_command", required=True, metavar="ACTION")
    status = network_commands.add_parser("status", help="print the mode (client or access point), SSID, address and clients")
    status.add_argument("--config", help="the TOML configuration file (default: $COMPANION_CONFIG, else built-in defaults)")
    status.set_defaults(run=_network_status)
    network_plan = network_commands.add_parser("plan", help="print, without running them, the nmcli commands of the configuration")
    network_plan.add_argument("--config", help="the TOML configuration file (default: $COMPANION_CONFIG, else built-in defaults)")
    network_plan.add_argument("--device", default="wlan0", help="the Wi-Fi device to show in the commands (default wlan0)")
    network_plan.set_defaults(run=_network_plan)

    doctor = commands.add_parser("doctor", help="check the platform, display, buttons, data folder and port, and say what to fix")
    doctor.add_argument("--config", help="the TOML configuration file (default: $COMPANION_CONFIG, else the installed "
                        "/etc/tabletop-companion/config.toml, else built-in defaults); as root, the doctor checks "
                        "with the installed service's user, groups, capabilities and sandbox")
    doctor.add_argument("--hardware", choices=("auto", "mock", "real"), help="check real hardware, mock, or auto (real on a Pi)")
    doctor.add_argument("--no-buttons", action="store_true", help="do not ask for each button to be pressed")
    doctor.set_defaults(run=_doctor)

    for name, run, what in (("export", _export, "write every play, move and name to FILE (JSON)"),
                            ("import", _import, "add the plays of FILE (made by export) that are not here yet")):
        command = commands.add_parser(name, help=what)
        command.add_argument("file", metavar="FILE", help="the plays file")
        command.add_argument("--config", help="the TOML configuration file (default: $COMPANION_CONFIG, else built-in defaults)")
        command.add_argument("--data", help="directory of the table's database (default: the configuration's)")
        command.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, StorageError) as error:
        # A bad game id, player count, options or configuration file, or a database this
        # version cannot read: restarting will not help, so exit 2 (the unit does not retry it).
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
