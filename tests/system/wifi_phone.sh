#!/bin/sh
# The Wi-Fi world of check_wifi.py, inside the virtual Pi (run as root by the check).
#
# mac80211_hwsim gives three simulated radios that hear each other: wlan0 stays with the
# companion (NetworkManager drives it); wlan1 ("the phone") and wlan2 ("the home router") move
# into the network namespace "phone", so the companion's side sees them only over the air.
#
#   wifi_phone.sh radios                  load mac80211_hwsim, make the namespace, move wlan1 and wlan2
#   wifi_phone.sh join SSID_HEX PSK_HEX   the phone associates (wpa_supplicant) and asks DHCP for an
#                                         address; its DNS server becomes the namespace's resolv.conf;
#                                         then the DHCP client ends: the phone says nothing more
#   wifi_phone.sh leave                   the phone disassociates and forgets its address
#   wifi_phone.sh home-up SSID PASSWORD   the home router: an access point on wlan2 with DHCP
#   wifi_phone.sh home-down               the home router is switched off
#   wifi_phone.sh teardown                everything above undone, the module unloaded
#
# Everything runs inside the virtual machine: the radios are simulated and the namespace has
# no way out but the simulated air to the companion.
set -eu
NS=phone
RUN=/run/wifi-rig
HOOK=/var/lib/wifi-rig/dhcp-script  # not in /run, which is mounted noexec
IN="ip netns exec $NS"
mkdir -p "$RUN"

# stop_pidfile PIDFILE [SIGNAL]: send SIGNAL (default TERM) to the process and wait until it
# has gone (wpa_supplicant says goodbye to the access point on TERM; KILL leaves silently).
stop_pidfile() {
    if [ -s "$1" ]; then
        pid=$(cat "$1")
        if kill "-${2:-TERM}" "$pid" 2>/dev/null; then
            timeout 30 sh -c "while kill -0 $pid 2>/dev/null; do sleep 0.2; done" ||
                { echo "process $pid ($1) did not end within 30 s of SIG${2:-TERM}" >&2; exit 1; }
        fi
    fi
    rm -f "$1"
}

case "$1" in
radios)
    modprobe mac80211_hwsim radios=3
    for radio in wlan0 wlan1 wlan2; do
        timeout 30 sh -c "until [ -e /sys/class/net/$radio/phy80211/name ]; do sleep 0.1; done" ||
            { echo "the simulated radio $radio did not appear within 30 s" >&2; exit 1; }
    done
    ip netns add "$NS"
    for radio in wlan1 wlan2; do
        iw phy "$(cat /sys/class/net/$radio/phy80211/name)" set netns name "$NS"
    done
    # A phone with nothing to say: no IPv6 (router solicitations, MLD reports). No sysctl
    # in the image (procps): /proc/sys inside the namespace is the namespace's own.
    $IN sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6; echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6'
    $IN ip link set lo up
    mkdir -p /etc/netns/$NS
    : >/etc/netns/$NS/resolv.conf  # `ip netns exec` binds it over /etc/resolv.conf
    ;;
join)
    ssid_hex=$2 psk_hex=$3
    cat >"$RUN/phone.conf" <<EOF
ctrl_interface=$RUN/phone-ctrl
network={
    ssid=$ssid_hex
    psk=$psk_hex
    key_mgmt=WPA-PSK
    proto=RSN
}
EOF
    $IN sh -c 'echo 1 >/proc/sys/net/ipv6/conf/wlan1/disable_ipv6'
    $IN wpa_supplicant -B -i wlan1 -c "$RUN/phone.conf" -P "$RUN/phone-wpa.pid" -f "$RUN/phone-wpa.log" >/dev/null
    timeout 90 sh -c "until $IN iw dev wlan1 link | grep -q '^Connected'; do sleep 0.3; done" ||
        { echo "the phone did not associate within 90 s; wpa_supplicant's log:" >&2; tail -20 "$RUN/phone-wpa.log" >&2; exit 1; }
    mkdir -p "$(dirname "$HOOK")"
    cat >"$HOOK" <<'EOF'
#!/bin/sh
# dhclient's hook for the phone: take the address, the route and the DNS server, nothing else.
case "$reason" in
BOUND | RENEW | REBIND | REBOOT)
    ip addr flush dev "$interface"
    ip addr add "$new_ip_address/$new_subnet_mask" dev "$interface"
    if [ -n "${new_routers:-}" ]; then ip route replace default via "${new_routers%% *}" dev "$interface"; fi
    echo "nameserver ${new_domain_name_servers%% *}" >/etc/netns/phone/resolv.conf
    echo "$new_ip_address" >/run/wifi-rig/phone-address
    ;;
esac
EOF
    chmod 0755 "$HOOK"
    rm -f "$RUN/phone-address"
    $IN timeout 60 dhclient -1 -4 -v -sf "$HOOK" -lf "$RUN/phone.leases" -pf "$RUN/dhclient.pid" wlan1 \
        >"$RUN/dhclient.log" 2>&1 ||
        { echo "the phone got no address by DHCP within 60 s; dhclient said:" >&2; tail -20 "$RUN/dhclient.log" >&2; exit 1; }
    [ -s "$RUN/phone-address" ] ||
        { echo "dhclient's hook did not take the address; dhclient said:" >&2; tail -20 "$RUN/dhclient.log" >&2; exit 1; }
    stop_pidfile "$RUN/dhclient.pid" KILL  # from now on the phone sends nothing (no renewals, no release)
    echo "address $(cat "$RUN/phone-address") dns $(sed -n 's/^nameserver //p' /etc/netns/$NS/resolv.conf)"
    ;;
leave)
    stop_pidfile "$RUN/dhclient.pid" KILL
    stop_pidfile "$RUN/phone-wpa.pid"  # TERM: it deauthenticates, as a phone leaving does
    $IN ip addr flush dev wlan1 2>/dev/null || true
    : >/etc/netns/$NS/resolv.conf
    ;;
home-up)
    cat >"$RUN/home.conf" <<EOF
ctrl_interface=$RUN/home-ctrl
network={
    ssid="$2"
    psk="$3"
    mode=2
    frequency=2462
    key_mgmt=WPA-PSK
    proto=RSN
    pairwise=CCMP
    group=CCMP
}
EOF
    $IN ip addr replace 10.77.0.1/24 dev wlan2
    $IN wpa_supplicant -B -i wlan2 -c "$RUN/home.conf" -P "$RUN/home-wpa.pid" -f "$RUN/home-wpa.log" >/dev/null
    timeout 30 sh -c "until $IN iw dev wlan2 info | grep -q 'type AP'; do sleep 0.3; done" ||
        { echo "the home router's access point did not start within 30 s" >&2; tail -20 "$RUN/home-wpa.log" >&2; exit 1; }
    $IN dnsmasq --conf-file=/dev/null --port=0 --interface=wlan2 --bind-interfaces --user=root \
        --dhcp-range=10.77.0.10,10.77.0.50,1h --dhcp-leasefile="$RUN/home.leases" --pid-file="$RUN/home-dnsmasq.pid"
    ;;
home-down)
    stop_pidfile "$RUN/home-dnsmasq.pid"
    stop_pidfile "$RUN/home-wpa.pid"
    $IN ip addr flush dev wlan2 2>/dev/null || true
    ;;
teardown)
    stop_pidfile "$RUN/dhclient.pid" KILL
    for name in phone-wpa home-dnsmasq home-wpa; do stop_pidfile "$RUN/$name.pid"; done
    ip netns del "$NS" 2>/dev/null || true
    rm -rf /etc/netns/$NS "$RUN" "$(dirname "$HOOK")"
    # The radios come back from the deleted namespace to the main one; then they go.
    timeout 30 sh -c 'until modprobe -r mac80211_hwsim 2>/dev/null; do sleep 0.5; done' ||
        { echo "mac80211_hwsim could not be unloaded within 30 s" >&2; exit 1; }
    ;;
*)
    echo "usage: $0 radios | join SSID_HEX PSK_HEX | leave | home-up SSID PASSWORD | home-down | teardown" >&2
    exit 2
    ;;
esac
